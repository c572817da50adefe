import { z } from 'zod';
import { badRequest } from '../errors.js';

/**
 * One direct route behind the data API: its input schema (also shown as the endpoint's public
 * metadata) and a pure function from a valid input to the reply body and its price. Outputs are
 * deterministic, so the price is known before anything is charged.
 */
export interface CallInfo {
  /** Sub-resource below the direct path (`users/esa` under `/api/microblog`), '' when none. */
  rest: string;
}

export interface Served {
  costUsd: number;
  /** Provider credits behind a credit-based price. */
  credits?: number;
  body: Record<string, unknown>;
  /** Name of a top-level array whose items the reply streams one by one (the crawler's pages). */
  streamKey?: string;
}

export interface DirectHandler {
  schema: z.ZodType;
  serve(input: unknown, call: CallInfo): Served;
}

export function handler<S extends z.ZodType>(
  schema: S,
  run: (input: z.output<S>, call: CallInfo) => Served,
): DirectHandler {
  return { schema, serve: (raw, call) => run(parseInput(schema, raw), call) };
}

/** Validates an input, answering 400 with every problem named (`missing_required_parameter` first). */
function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const missing = issues.find((i) => i.code === 'invalid_type' && / received undefined$/.test(i.message));
  const first = missing ?? issues[0]!;
  const param = first.path.map(String).join('.') || undefined;
  const describe = (i: z.core.$ZodIssue) => {
    const at = i.path.map(String).join('.');
    if (i.code === 'invalid_type' && / received undefined$/.test(i.message)) return `\`${at}\` is required`;
    return at ? `\`${at}\`: ${i.message}` : i.message;
  };
  throw badRequest(
    `${issues.map(describe).join('; ')}.`,
    missing ? 'missing_required_parameter' : 'invalid_parameter_value',
    param,
  );
}

/** Numbers that also arrive as query strings (GET dispatch). */
export const count = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const nonEmpty = (description: string) => z.string().trim().min(1).describe(description);

/** For "give `url` or `username`" inputs. */
export const oneOf = (input: Record<string, unknown>, names: string[]): boolean =>
  names.some((name) => input[name] !== undefined);
