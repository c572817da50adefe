import type { z } from 'zod';
import { readReply } from './read.js';

/**
 * One element of a platform list that could not be used (a rail, a score, a model): left out of
 * the result and named, so one odd element never sinks the whole call (issue 25, "read tolerantly").
 */
export interface LeftOut {
  /** What the element is called in the reply (its id, scheme or name), else its position. */
  name: string;
  /** Why it was left out, in a few words: `has no payTo`, `status is not a string`. */
  reason: string;
}

export interface UsableList<T> {
  items: T[];
  left_out: LeftOut[];
}

/** The field a zod issue is about, relative to the element, and a short reason. */
export function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is not usable';
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message))
    return field ? `has no ${field}` : 'is empty';
  return field ? `${field}: ${issue.message}` : issue.message;
}

function nameOf(raw: unknown, index: number, keys: readonly string[]): string {
  if (typeof raw === 'object' && raw !== null) {
    for (const key of keys) {
      const value = (raw as Record<string, unknown>)[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return `#${index + 1}`;
}

/**
 * Parses each element of a list on its own: the ones the schema (and `usable`, when given) accept
 * are kept, every other one is named in `left_out`. A value that is not a list leaves nothing usable.
 */
export function usableList<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  options: {
    /** Keys tried, in order, to name an element that is left out. */
    nameKeys?: readonly string[];
    /** A further check on a parsed element: a reason to leave it out, or undefined to keep it. */
    usable?: (item: z.infer<S>) => string | undefined;
  } = {},
): UsableList<z.infer<S>> {
  const nameKeys = options.nameKeys ?? ['id', 'name'];
  const list: unknown[] = Array.isArray(raw) ? raw : [];
  const result: UsableList<z.infer<S>> = { items: [], left_out: [] };
  list.forEach((element, index) => {
    const parsed = readReply(schema, element);
    const reason = parsed.success ? options.usable?.(parsed.data) : reasonOf(parsed.error);
    if (parsed.success && reason === undefined) result.items.push(parsed.data);
    else result.left_out.push({ name: nameOf(element, index, nameKeys), reason: reason ?? 'is not usable' });
  });
  return result;
}

/** `1 rail not usable: lightning-l402 has no payTo`; undefined when nothing was left out. */
export function leftOutNote(noun: string, leftOut: readonly LeftOut[]): string | undefined {
  if (leftOut.length === 0) return undefined;
  const plural = leftOut.length === 1 ? noun : `${noun}s`;
  return `${leftOut.length} ${plural} not usable: ${leftOut.map((item) => `${item.name} ${item.reason}`).join('; ')}`;
}
