import type { z } from 'zod';
import { redact } from '../log.js';
import type { Drift } from './types.js';

type Issue = z.core.$ZodIssue;

/**
 * A union's failure as the issues of the option that read furthest into the reply (its deepest
 * path): `data.0.id: expected string`, not "invalid input" for the whole body.
 */
function flatten(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const depth = (issues: Issue[]) => Math.max(0, ...issues.map((i) => i.path.length));
  const branch = issue.errors.reduce((best, next) => (depth(next) > depth(best) ? next : best));
  return branch.flatMap((inner) => flatten({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * What a zod issue says, as `field`, `expected`, `got`. `data` is the value parsed, found at `at`
 * in the reply (a field's dotted path starts there).
 */
export function driftsOf(error: z.ZodError, data: unknown, at: readonly PropertyKey[] = []): Drift[] {
  return error.issues
    .flatMap(flatten)
    .slice(0, 5)
    .map((issue) => {
      const path = [...at, ...issue.path];
      const field = path.length ? path.map(String).join('.') : '(body)';
      let value: unknown = data;
      for (const key of issue.path)
        value = (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
      const expected =
        'expected' in issue && typeof issue.expected === 'string' ? issue.expected : issue.message;
      return { field, expected, got: describe(value) };
    });
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'object') return 'object';
  // A drifted field may hold a key or a token: what is printed is redacted before it is cut short.
  const text = redact(JSON.stringify(value));
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}
