import { createHash } from 'node:crypto';
import { sha256Hex } from '../util.js';

/**
 * The payment rails a quote accepts (spec 1 §7.3): how each names its network, asset and amount.
 * Exchange rates are fixed so quotes are deterministic.
 */
export const RAILS = [
  'x402-exact',
  'x402-solana-usdc',
  'nano-exact',
  'base-usdc',
  'nano',
  'lightning-l402',
] as const;
export type Rail = (typeof RAILS)[number];

/** Pay to an address, then poll `statusUrl` and call `completeUrl`. */
export const POLLING_RAILS: readonly Rail[] = ['base-usdc', 'nano'];
/** Replay the identical request with an `X-PAYMENT` payload from the wallet. */
export const EXACT_RAILS: readonly Rail[] = ['x402-exact', 'x402-solana-usdc', 'nano-exact'];

export const isRail = (value: unknown): value is Rail => RAILS.includes(value as Rail);

const EVM_PAY_TO = '0x5a4d0000000000000000000000000000005a4d00';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const SOLANA_PAY_TO = 'OrbitSandboxPayee1111111111111111111111111';
const USDC_SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOLANA_FEE_PAYER = 'OrbitSandboxFeePayer111111111111111111111111';
const NANO_PAY_TO = 'nano_3sandbox1111111111111111111111111111111111111111111111111';
/** Fixed rates: 1 XNO = 0.80 USD, 1 BTC = 100,000 USD. */
const XNO_USD = 0.8;
const BTC_USD = 100_000;

interface RailInfo {
  protocolScheme: string;
  network: string;
  payTo: string;
  asset?: string;
  feePayer?: string;
  /** Amount in the rail's smallest unit, as a string. */
  amount(usd: number): string;
  formatted(usd: number): string;
}

const usdcUnits = (usd: number) => String(Math.ceil(usd * 1e6 - 1e-9));
const usdc = (usd: number) => `${(Number(usdcUnits(usd)) / 1e6).toFixed(6)} USDC`;
/** XNO to six decimals; one XNO is 10^30 raw. */
const xnoMicros = (usd: number) => Math.ceil((usd / XNO_USD) * 1e6 - 1e-9);
const sats = (usd: number): number => Math.max(1, Math.ceil((usd / BTC_USD) * 1e8 - 1e-9));

const USDC_BASE_RAIL = {
  network: 'base',
  payTo: EVM_PAY_TO,
  asset: USDC_BASE,
  amount: usdcUnits,
  formatted: usdc,
};
const NANO_RAIL = {
  network: 'nano',
  payTo: NANO_PAY_TO,
  amount: (usd: number) => (BigInt(xnoMicros(usd)) * 10n ** 24n).toString(),
  formatted: (usd: number) => `${(xnoMicros(usd) / 1e6).toFixed(6)} XNO`,
};

export const RAIL_INFO: Record<Rail, RailInfo> = {
  'x402-exact': { protocolScheme: 'exact', ...USDC_BASE_RAIL },
  'x402-solana-usdc': {
    protocolScheme: 'exact',
    network: 'solana',
    payTo: SOLANA_PAY_TO,
    asset: USDC_SOLANA,
    feePayer: SOLANA_FEE_PAYER,
    amount: usdcUnits,
    formatted: usdc,
  },
  'nano-exact': { protocolScheme: 'exact', ...NANO_RAIL },
  'base-usdc': { protocolScheme: 'transfer', ...USDC_BASE_RAIL },
  nano: { protocolScheme: 'transfer', ...NANO_RAIL },
  'lightning-l402': {
    protocolScheme: 'l402',
    network: 'lightning',
    payTo: 'orbit-sandbox-node',
    amount: (usd) => String(sats(usd)),
    formatted: (usd) => `${sats(usd)} sats`,
  },
};

/**
 * The lightning invoice's secret: the wallet learns it by paying, and its sha256 is the invoice's
 * payment hash. Derived from the payment id with a sandbox-only secret, so it is deterministic.
 */
export const preimageOf = (paymentId: string): string => sha256Hex(`orbit-sandbox-lightning|${paymentId}`);
export const paymentHashOf = (preimageHex: string): string =>
  createHash('sha256').update(Buffer.from(preimageHex, 'hex')).digest('hex');

/** The L402 token (a macaroon stand-in): names the quote and the payment hash it is locked to. */
export const l402TokenOf = (paymentId: string): string =>
  Buffer.from(
    JSON.stringify({ v: 1, paymentId, paymentHash: paymentHashOf(preimageOf(paymentId)) }),
  ).toString('base64url');

/** An invoice-shaped string (not a real BOLT11 invoice: it is never paid on a network). */
export const invoiceOf = (paymentId: string, usd: number): string =>
  `lnbc${sats(usd) * 10}n1sandbox${paymentHashOf(preimageOf(paymentId)).slice(0, 40)}`;

/** What the sandbox wallet signs for an exact-rail payment; a changed field breaks it. */
export const walletSignature = (paymentId: string, rail: Rail, amount: string, payTo: string): string =>
  `0x${sha256Hex(`orbit-sandbox-wallet|${paymentId}|${rail}|${amount}|${payTo}`)}`;

/** The base64 `X-PAYMENT` value a wallet would produce for one exact rail of a quote. */
export function walletPayment(paymentId: string, rail: Rail, usd: number): string {
  const info = RAIL_INFO[rail];
  const amount = info.amount(usd);
  const payload = {
    x402Version: 1,
    scheme: info.protocolScheme,
    network: info.network,
    paymentId,
    payload: {
      rail,
      amount,
      payTo: info.payTo,
      signature: walletSignature(paymentId, rail, amount, info.payTo),
    },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The transaction hash a settled payment reports, shaped like its network's. */
export const settlementHash = (paymentId: string, rail: Rail): string => {
  const hex = sha256Hex(`settled|${rail}|${paymentId}`);
  return RAIL_INFO[rail].network === 'nano' ? hex.toUpperCase() : `0x${hex}`;
};
