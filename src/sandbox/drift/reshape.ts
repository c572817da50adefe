import { z } from 'zod';

/**
 * A reply shaped otherwise than the sandbox's own (the "drift" fault): the route runs, then its JSON
 * body is changed the way a real platform might differ from this emulator. Paths are dotted;
 * `*` stands for every element of a list or every key of an object.
 */
export const Reshape = z.strictObject({
  /** Fields left out, e.g. `payment.accepted.5.payTo` or `data.*.scores.*.status`. */
  drop: z.array(z.string().min(1)).optional(),
  /** Fields set (added when unknown, replaced when present). */
  set: z.record(z.string().min(1), z.unknown()).optional(),
  /** Numbers turned into numeric strings (`3` -> `"3"`). */
  stringify: z.array(z.string().min(1)).optional(),
  /** The whole body replaced by this JSON value (`{}`), after the route ran. */
  replace: z.unknown().optional(),
  /** The whole body replaced by this text, which need not be JSON, after the route ran. */
  text: z.string().optional(),
});
export type Reshape = z.infer<typeof Reshape>;

type Json = unknown;

const isContainer = (value: Json): value is Record<string, Json> | Json[] =>
  typeof value === 'object' && value !== null;

/** Every container the path's head reaches, with the last segment left to apply to. */
function parents(root: Json, path: string): Array<{ parent: Record<string, Json> | Json[]; key: string }> {
  const segments = path.split('.');
  const last = segments.pop()!;
  let level: Json[] = [root];
  for (const segment of segments) {
    const next: Json[] = [];
    for (const node of level) {
      if (!isContainer(node)) continue;
      if (segment === '*') next.push(...Object.values(node));
      else if (segment in node) next.push((node as Record<string, Json>)[segment]);
    }
    level = next;
  }
  const found: Array<{ parent: Record<string, Json> | Json[]; key: string }> = [];
  for (const node of level) {
    if (!isContainer(node)) continue;
    const keys = last === '*' ? Object.keys(node) : [last];
    for (const key of keys) found.push({ parent: node, key });
  }
  return found;
}

/** The body with the reshape applied (changed in place and returned). */
export function reshape(body: Json, change: Reshape): Json {
  if ('replace' in change) return change.replace;
  for (const path of change.drop ?? []) {
    // Backwards, so removing one list element does not shift the next one found.
    for (const { parent, key } of parents(body, path).reverse()) {
      if (Array.isArray(parent)) {
        const index = Number(key);
        if (Number.isInteger(index) && index < parent.length) parent.splice(index, 1);
      } else delete parent[key];
    }
  }
  for (const [path, value] of Object.entries(change.set ?? {})) {
    for (const { parent, key } of parents(body, path)) (parent as Record<string, Json>)[key] = value;
  }
  for (const path of change.stringify ?? []) {
    for (const { parent, key } of parents(body, path)) {
      const record = parent as Record<string, Json>;
      if (typeof record[key] === 'number') record[key] = String(record[key]);
    }
  }
  return body;
}
