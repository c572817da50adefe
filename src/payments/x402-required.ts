import type { Challenge, Rail } from './challenge.js';
import { type PaymentRequired, X402_VERSION } from './x402-schema.js';

export { PaymentRequired, X402_VERSION } from './x402-schema.js';

/**
 * The x402 v2 `PaymentRequired` of a quote (coinbase/x402 specs/transports-v2/mcp.md), so an
 * x402 wallet client can pay it without knowing this server: one `accepts[]` entry per exact-scheme
 * rail the platform offered. Polling and lightning rails have no x402 form; they stay in orbit's
 * own `rails`. Networks are written as CAIP-2 ids where the platform's name has a known one.
 */

/** The platform's network names and their CAIP-2 ids (docs/platform-assumptions.md, "x402 MCP binding"). */
const CAIP2: Record<string, string> = {
  base: 'eip155:8453',
  'base-sepolia': 'eip155:84532',
  ethereum: 'eip155:1',
  polygon: 'eip155:137',
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana-devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
};
export const caip2 = (network: string): string => CAIP2[network] ?? network;
/** The platform's name for a network an x402 client names by CAIP-2. */
export const platformNetwork = (network: string): string =>
  Object.entries(CAIP2).find(([, id]) => id === network)?.[0] ?? network;

export const resourceUrl = (tool: string): string => `mcp://tool/${tool}`;

/** `{ x402 }` for a quote with at least one exact rail (as railKind tells them); nothing otherwise. */
export function paymentRequiredFor(
  challenge: Challenge,
  exactRails: readonly Rail[],
  tool: string,
  now = Date.now(),
): { x402?: PaymentRequired } {
  const { payment } = challenge;
  const seconds = Math.max(1, Math.floor((Date.parse(payment.expiresAt) - now) / 1000));
  const accepts = exactRails
    .filter((rail) => rail.amount && rail.payTo && rail.network)
    .map((rail) => ({
      scheme: 'exact',
      network: caip2(rail.network!),
      amount: rail.amount!,
      asset: rail.asset ?? rail.network!,
      payTo: rail.payTo!,
      maxTimeoutSeconds: Number.isFinite(seconds) ? seconds : 60,
      // What the payment must name to be replayed: the quote and the platform's rail.
      extra: {
        quote_id: payment.paymentId,
        rail: rail.scheme,
        tool,
        ...(rail.feePayer ? { feePayer: rail.feePayer } : {}),
      },
    }));
  if (accepts.length === 0) return {};
  return {
    x402: {
      x402Version: X402_VERSION,
      error: challenge.error?.message ?? `Payment of ${payment.amountUsd} USD required`,
      resource: {
        url: resourceUrl(tool),
        description: `A paid call of ${tool}`,
        mimeType: 'application/json',
      },
      accepts,
    },
  };
}
