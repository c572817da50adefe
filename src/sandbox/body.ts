import type { Context } from 'hono';
import { badRequest } from './errors.js';
import type { SandboxEnv } from './types.js';
import { isRecord } from './util.js';

/** The request body as a JSON object, or a 400 `invalid_json`. */
export function jsonBody(c: Context<SandboxEnv>): Record<string, unknown> {
  const text = c.get('bodyText');
  const json = c.get('bodyJson');
  if (!text.trim()) throw badRequest('The request body must be a JSON object.', 'invalid_json');
  if (json === undefined) throw badRequest('The request body is not valid JSON.', 'invalid_json');
  if (!isRecord(json)) throw badRequest('The request body must be a JSON object.', 'invalid_json');
  return json;
}

export function optionalNumber(
  body: Record<string, unknown>,
  name: string,
  range: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!range.integer || Number.isInteger(value)) &&
    (range.min === undefined || value >= range.min) &&
    (range.max === undefined || value <= range.max);
  if (!ok) {
    const bounds = [
      range.min !== undefined && `>= ${range.min}`,
      range.max !== undefined && `<= ${range.max}`,
    ]
      .filter(Boolean)
      .join(' and ');
    throw badRequest(
      `\`${name}\` must be a${range.integer ? 'n integer' : ' number'}${bounds ? ` ${bounds}` : ''}.`,
      'invalid_parameter_value',
      name,
    );
  }
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw badRequest(`\`${name}\` must be true or false.`, 'invalid_parameter_value', name);
  return value;
}

export function optionalString<T extends string>(
  body: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T | undefined;
export function optionalString(
  body: Record<string, unknown>,
  name: string,
  allowed?: readonly string[],
): string | undefined;
export function optionalString(
  body: Record<string, unknown>,
  name: string,
  allowed?: readonly string[],
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || (allowed && !allowed.includes(value))) {
    const hint = allowed ? `one of ${allowed.join(', ')}` : 'a string';
    throw badRequest(`\`${name}\` must be ${hint}.`, 'invalid_parameter_value', name);
  }
  return value;
}

export function optionalObject(
  body: Record<string, unknown>,
  name: string,
): Record<string, unknown> | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw badRequest(`\`${name}\` must be an object.`, 'invalid_parameter_value', name);
  return value;
}
