import { z } from 'zod';
import { ApiError, REPORT_UPSTREAM, UpstreamInvalidError } from '../errors.js';
import { readReply } from '../replies/read.js';
import { leftOutNote, usableList } from '../replies/usable-list.js';
import { PaymentRequired } from './x402-schema.js';

/**
 * The accountless payment challenge (spec 1 §7.3, GAPS "Accountless payment"): a 402 whose body
 * has a top-level `payment` object with every accepted rail. Read leniently (unknown keys kept,
 * amounts as strings or numbers), validated at the boundary, and turned into a payment request
 * a person can act on.
 */
const Amount = z.union([z.string(), z.number()]).transform(String);

const Rail = z.looseObject({
  scheme: z.string().min(1),
  protocolScheme: z.string().optional(),
  network: z.string().optional(),
  amount: Amount.optional(),
  amountFormatted: z.string().optional(),
  amountUsd: Amount.optional(),
  payTo: z.string().optional(),
  paymentId: z.string().optional(),
  statusUrl: z.string().optional(),
  completeUrl: z.string().optional(),
  asset: z.string().optional(),
  feePayer: z.string().optional(),
  expiresAt: z.string().optional(),
  invoice: z.string().optional(),
  paymentHash: z.string().optional(),
  l402Token: z.string().optional(),
});
export type Rail = z.infer<typeof Rail>;

const Payment = z.looseObject({
  version: z.unknown().optional(),
  paymentId: z.string().min(1),
  requestHash: z.string().optional(),
  expiresAt: z.string().min(1),
  amountUsd: Amount,
  statusUrl: z.string().optional(),
  completeUrl: z.string().optional(),
});

/** The challenge as it comes: rails are checked one by one afterwards (one odd rail must not sink the quote). */
const ChallengeError = z.looseObject({ code: z.string().optional(), message: z.string().optional() });
const RawChallenge = z.looseObject({
  error: ChallengeError.optional().catch(undefined),
  payment: Payment.extend({ accepted: z.array(z.unknown()) }),
  x402Version: z.unknown().optional(),
  accepts: z.unknown().optional(),
});

/** A challenge with only the rails a person can pay, and a note naming the others. */
export type Challenge = {
  error?: z.infer<typeof ChallengeError>;
  payment: z.infer<typeof Payment> & { accepted: Rail[] };
  /** `1 rail not usable: base-usdc has no payTo`, when a rail was left out. */
  unusable?: string;
};

/** How a rail is finished: poll then complete, replay with an L402 preimage, or replay with X-PAYMENT. */
export type RailKind = 'polling' | 'lightning' | 'exact';

export function railKind(rail: Rail): RailKind {
  if (rail.l402Token || rail.protocolScheme === 'l402' || /lightning/i.test(rail.scheme)) return 'lightning';
  if (rail.statusUrl || rail.completeUrl) return 'polling';
  return 'exact';
}

/** What a rail needs to be paid: an address for address and exact rails, an invoice and token for lightning. */
function unusableRail(rail: Rail): string | undefined {
  const kind = railKind(rail);
  if (kind === 'lightning') {
    if (!rail.invoice) return 'has no invoice';
    return rail.l402Token ? undefined : 'has no l402Token';
  }
  return rail.payTo ? undefined : 'has no payTo';
}

/** The challenge with its payable rails; undefined-free errors name the field that broke it. */
function readChallenge(body: unknown): { challenge?: Challenge; problem?: string } {
  const parsed = readReply(RawChallenge, body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : '(body)';
    return { problem: `\`${field}\`: ${issue?.message ?? 'invalid'}` };
  }
  const rails = usableList(Rail, parsed.data.payment.accepted, {
    nameKeys: ['scheme', 'network'],
    usable: unusableRail,
  });
  const unusable = leftOutNote('rail', rails.left_out);
  if (rails.items.length === 0) {
    return { problem: `\`payment.accepted\`: no rail can be paid${unusable ? ` (${unusable})` : ''}` };
  }
  const challenge: Challenge = {
    ...parsed.data,
    payment: { ...parsed.data.payment, accepted: rails.items },
    ...(unusable ? { unusable } : {}),
  };
  return { challenge };
}

/**
 * The challenge an error carries (a 402 with `payment`, kept by the envelope parser), validated;
 * undefined for any other error. A challenge that breaks the spec is the platform's fault.
 */
export function challengeOf(
  error: unknown,
  route: string,
): { challenge: Challenge; error: ApiError } | undefined {
  if (!(error instanceof ApiError) || error.status !== 402 || error.details?.challenge === undefined)
    return undefined;
  const { challenge, problem } = readChallenge(error.details.challenge);
  if (!challenge) {
    throw new UpstreamInvalidError(
      `The platform's payment challenge from ${route} did not match the spec at ${problem}.`,
      { requestId: error.requestId, fix: REPORT_UPSTREAM, details: { field: problem?.split('`')[1] } },
    );
  }
  return { challenge, error };
}

/** One accepted rail as a person needs it: where to pay, how much, and how to finish. */
const PaymentRail = z.object({
  scheme: z.string(),
  kind: z.enum(['polling', 'lightning', 'exact']),
  network: z.string().optional(),
  amount: z.string().optional(),
  pay_to: z.string().optional(),
  asset: z.string().optional(),
  invoice: z.string().optional(),
  expires_at: z.string().optional(),
});

export const PaymentRequest = z.object({
  quote_id: z.string(),
  amount_usd: z.string(),
  expires_at: z.string(),
  rails: z.array(PaymentRail),
  /** Rails the challenge offered that cannot be paid, named: `1 rail not usable: base-usdc has no payTo`. */
  not_usable: z.string().optional(),
  next: z.string(),
  /** The same quote as an x402 wallet reads it (src/mcp/x402-binding.ts lifts it into the result). */
  x402: PaymentRequired.optional(),
});
export type PaymentRequest = z.infer<typeof PaymentRequest>;

const FINISH: Record<RailKind, string> = {
  polling: 'pay the address, then x402_complete with quote_id',
  lightning: 'pay the invoice, then x402_complete with quote_id and the preimage the wallet shows',
  exact: 'the wallet signs an X-PAYMENT payload; x402_complete with quote_id and x_payment',
};

export function paymentRequest(challenge: Challenge): PaymentRequest {
  const { payment } = challenge;
  const kinds = new Set<RailKind>();
  const rails = payment.accepted.map((rail) => {
    const kind = railKind(rail);
    kinds.add(kind);
    return {
      scheme: rail.scheme,
      kind,
      ...(rail.network ? { network: rail.network } : {}),
      ...(rail.amountFormatted || rail.amount ? { amount: rail.amountFormatted ?? rail.amount } : {}),
      ...(rail.payTo && kind !== 'lightning' ? { pay_to: rail.payTo } : {}),
      ...(rail.asset ? { asset: rail.asset } : {}),
      ...(rail.invoice ? { invoice: rail.invoice } : {}),
      ...(rail.expiresAt && rail.expiresAt !== payment.expiresAt ? { expires_at: rail.expiresAt } : {}),
    };
  });
  return {
    quote_id: payment.paymentId,
    amount_usd: payment.amountUsd,
    expires_at: payment.expiresAt,
    rails,
    ...(challenge.unusable ? { not_usable: challenge.unusable } : {}),
    next: `Ask the person to pay one rail before ${payment.expiresAt}. ${[...kinds].map((kind) => `${kind}: ${FINISH[kind]}`).join('; ')}. Or sign in (auth_login) to pay from an account.`,
  };
}

/** The payment request as lines a person can read and act on. */
export function paymentText(request: PaymentRequest): string {
  const lines = [
    `Payment required: ${request.amount_usd} USD (quote ${request.quote_id}, expires ${request.expires_at}). Pay one of:`,
  ];
  for (const rail of request.rails) {
    const where = rail.invoice ? `invoice ${rail.invoice}` : rail.pay_to ? `to ${rail.pay_to}` : '';
    const on = rail.network && rail.network !== rail.scheme ? ` on ${rail.network}` : '';
    lines.push(
      `- ${rail.scheme}${on}: ${rail.amount ?? `${request.amount_usd} USD`} ${where} (${rail.kind})`.trimEnd(),
    );
  }
  if (request.not_usable) lines.push(`(${request.not_usable}.)`);
  lines.push(request.next);
  return lines.join('\n');
}
