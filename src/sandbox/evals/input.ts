import type { Context } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { badRequest } from '../errors.js';
import type { SandboxEnv } from '../types.js';
import { isRecord } from '../util.js';

/** Request-body checks shared by the evaluation routes; every failure is a spec 1 §7 400. */

/** `items[0].input` style, as the `param` of an error. */
function paramName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => {
    if (typeof part === 'number') return `${name}[${part}]`;
    return name ? `${name}.${String(part)}` : String(part);
  }, '');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (Array.isArray(value) && typeof part === 'number') value = value[part];
    else if (isRecord(value)) value = value[String(part)];
    else return undefined;
  }
  return value;
}

/**
 * Parses with zod and turns the first issue into `missing_required_parameter` (nothing there) or
 * `invalid_parameter_value`, naming the field; `prefix` places a nested object in the message.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [...prefix, ...issue.path];
  const param = paramName(path) || 'body';
  const missing = issue.path.length > 0 && valueAt(value, issue.path) === undefined;
  throw badRequest(
    missing ? `\`${param}\` is required.` : `\`${param}\`: ${issue.message}`,
    missing ? 'missing_required_parameter' : 'invalid_parameter_value',
    param,
  );
}

/** The JSON object body; an empty body counts as `{}` on routes whose fields are all optional. */
export function optionalJsonBody(c: Context<SandboxEnv>): Record<string, unknown> {
  return c.get('bodyText').trim() ? jsonBody(c) : {};
}

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

/** A dataset or inline row (spec 2 §2.7); unknown keys are dropped. */
export const RowSchema = z.object({
  input: z.unknown().refine(present, 'a non-empty `input` is required'),
  output: z.unknown().optional(),
  system: z.string().optional(),
  expected_output: z.unknown().optional(),
  context: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const NameSchema = z.string().trim().min(1).max(200);
export const DescriptionSchema = z.string().max(2_000).nullable().optional();

/** A value as prompt text: strings as they are, anything else as JSON. */
export function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The placeholder names a template uses, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** Replaces `{{name}}` (spaces inside the braces allowed) with the given values. */
export function render(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}
