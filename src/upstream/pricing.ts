import { z } from 'zod';
import { readReply } from '../replies/read.js';

/**
 * The `x_<word>_pricing` extension (spec 2 §6). Found by pattern, never by the literal word,
 * so the client also works against a platform that uses another word.
 */
export const PRICING_KEY = /^x_[a-z0-9]+_pricing$/i;

export const Pricing = z.looseObject({
  amount: z.number().optional(),
  currency: z.string().optional(),
  cost: z.number().optional(),
  paymentSource: z.string().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  cacheCost: z.number().optional(),
  billedToTeam: z.boolean().optional(),
  billedTeamId: z.string().nullish(),
  billedTeamName: z.string().nullish(),
  error: z.object({ status: z.number().optional(), message: z.string().optional() }).nullish(),
});
export type Pricing = z.infer<typeof Pricing>;

export function readPricing(value: unknown): Pricing | undefined {
  if (!value || typeof value !== 'object') return undefined;
  // Runs on every stream chunk: a plain key walk, and the pattern only for keys like x_….
  for (const key in value) {
    if (key[1] !== '_' || !PRICING_KEY.test(key)) continue;
    const parsed = readReply(Pricing, (value as Record<string, unknown>)[key]);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/** A cost header on binary replies (`x-<word>-cost`), matched by pattern, never by the literal word. */
export function costFromHeaders(headers: Record<string, string>): number | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (/^x-[a-z0-9]+-cost$/i.test(name) && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}
