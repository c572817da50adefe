import type { z } from 'zod';
import { isRecord } from '../lang.js';
import { toNumber } from './number.js';

/**
 * The one reader of platform replies (issue 32): a reply, or any part of one, parsed with the
 * tools' schema as the platform may send it. Where the schema refuses a value:
 * - `null` is read as "not sent" (the field is removed), so a schema that accepts a missing field
 *   accepts it, and one that needs the field names it as missing;
 * - a numeric string (`"0.006"`) where the schema wants a number is read as that number.
 * Only a reply the schema refuses is looked at again (the common case costs one parse), and the
 * caller's value is never changed: the fixes go to a copy.
 */
export function readReply<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  let parsed = schema.safeParse(value);
  let copy: unknown;
  // Each round fixes every value the last parse named; a fix can uncover another one level down.
  for (let round = 0; round < MAX_ROUNDS && !parsed.success; round++) {
    const fixes = fixesFor(parsed.error.issues, [], copy ?? value);
    if (fixes.length === 0) break;
    copy ??= structuredClone(value);
    for (const fix of fixes) apply(copy, fix);
    parsed = schema.safeParse(copy);
  }
  return parsed;
}

const MAX_ROUNDS = 8;

type Path = readonly PropertyKey[];
type Fix = { path: Path; to: 'absent' | 'number' };

/** What to change for each refused value: nulls in objects, numeric strings where numbers go. */
function fixesFor(issues: readonly z.core.$ZodIssue[], base: Path, root: unknown): Fix[] {
  const fixes: Fix[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    // A union's options each said why they refused; their paths are below the union's own.
    if (issue.code === 'invalid_union') {
      for (const option of issue.errors) fixes.push(...fixesFor(option, path, root));
      continue;
    }
    const found = at(root, path);
    if (!found) continue;
    if (found.value === null && !Array.isArray(found.parent)) fixes.push({ path, to: 'absent' });
    else if (
      issue.code === 'invalid_type' &&
      (issue.expected === 'number' || issue.expected === 'int') &&
      typeof found.value === 'string' &&
      typeof toNumber(found.value) === 'number'
    )
      fixes.push({ path, to: 'number' });
  }
  return fixes;
}

/** The value at `path` and the container holding it, when the path leads anywhere. */
function at(root: unknown, path: Path): { parent: object; value: unknown } | undefined {
  if (path.length === 0) return undefined;
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!isContainer(node)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = path[path.length - 1]!;
  if (!isContainer(node) || !Object.hasOwn(node, last)) return undefined;
  return { parent: node, value: (node as Record<PropertyKey, unknown>)[last] };
}

function apply(root: unknown, fix: Fix): void {
  const found = at(root, fix.path);
  if (!found) return;
  const parent = found.parent as Record<PropertyKey, unknown>;
  const key = fix.path[fix.path.length - 1]!;
  if (fix.to === 'absent') delete parent[key];
  else parent[key] = toNumber(found.value);
}

const isContainer = (value: unknown): value is object => Array.isArray(value) || isRecord(value);
