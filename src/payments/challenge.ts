import { z } from 'zod';
import { ApiError, REPORT_UPSTREAM, UpstreamInvalidError } from '../errors.js';
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

export const Challenge = z.looseObject({
  error: z.looseObject({ code: z.string().optional(), message: z.string().optional() }).optional(),
  payment: z.looseObject({
    version: z.number().optional(),
    paymentId: z.string().min(1),
    requestHash: z.string().optional(),
    expiresAt: z.string().min(1),
    amountUsd: Amount,
    statusUrl: z.string().optional(),
    completeUrl: z.string().optional(),
    accepted: z.array(Rail).min(1),
  }),
  x402Version: z.number().optional(),
  accepts: z.array(z.unknown()).optional(),
});
export type Challenge = z.infer<typeof Challenge>;

/** How a rail is finished: poll then complete, replay with an L402 preimage, or replay with X-PAYMENT. */
export type RailKind = 'polling' | 'lightning' | 'exact';

export function railKind(rail: Rail): RailKind {
  if (rail.l402Token || rail.protocolScheme === 'l402' || /lightning/i.test(rail.scheme)) return 'lightning';
  if (rail.statusUrl || rail.completeUrl) return 'polling';
  return 'exact';
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
  const parsed = Challenge.safeParse(error.details.challenge);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : '(body)';
    throw new UpstreamInvalidError(
      `The platform's payment challenge from ${route} did not match the spec at \`${field}\`: ${issue?.message ?? 'invalid'}.`,
      { requestId: error.requestId, fix: REPORT_UPSTREAM, details: { field } },
    );
  }
  return { challenge: parsed.data, error };
}

/** One accepted rail as a person needs it: where to pay, how much, and how to finish. */
export const PaymentRail = z.object({
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
  lines.push(request.next);
  return lines.join('\n');
}
