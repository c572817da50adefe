import { z } from 'zod';
import type { ToolContext } from '../../src/context.js';
import { explainRefusal } from '../../src/credential-refusal.js';
import { NumberLike } from '../../src/replies/number.js';
import type { ApiResponse } from '../../src/upstream/client.js';
import type { RequestSpec } from '../../src/upstream/outgoing.js';

/**
 * The management API's API-key routes (spec 1 §4.3), by management token. The spec does not show
 * the records, so only `id` is required; a secret is never part of a record (only the creation
 * reply carries `key`), and any secret-looking field a reply might add is dropped before it can
 * reach a result.
 */

export type Scope = 'api_keys:read' | 'api_keys:write';

export async function managementCall<S extends z.ZodType>(
  ctx: Pick<ToolContext, 'api'>,
  scope: Scope,
  spec: Omit<RequestSpec, 'credential'> & { schema: S },
): Promise<ApiResponse<z.infer<S>>> {
  try {
    return await ctx.api.request({ ...spec, credential: 'management_token' });
  } catch (error) {
    throw explainRefusal(error, { credential: 'management_token', scope });
  }
}

const SECRET_FIELDS = new Set(['key', 'secret', 'api_key', 'token', 'access_token']);

const keyFields = {
  id: z.string().min(1),
  name: z.string().nullish(),
  key_preview: z.string().nullish(),
  created_at: z.string().nullish(),
  expires_at: z.string().nullish(),
  disabled: z.boolean().nullish(),
  // The record's shape is "not shown": a limit may come as a numeric string.
  daily_usd_limit: NumberLike.nullish(),
  daily_request_limit: NumberLike.nullish(),
};

const withoutSecrets = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([field]) => !SECRET_FIELDS.has(field)));

export const KeyRecord = z
  .looseObject(keyFields)
  .transform(withoutSecrets)
  .pipe(z.looseObject({ id: z.string() }));
export type KeyRecord = z.infer<typeof KeyRecord>;

/**
 * The record beside a new key's secret: `id` too may be missing (the bodies are "not shown"), and
 * the secret, already made, must still reach its file rather than be lost with the reply.
 */
export const CreatedRecord = z
  .looseObject({ ...keyFields, id: keyFields.id.optional() })
  .transform(withoutSecrets)
  .pipe(z.looseObject({ id: z.string().optional() }));
export type CreatedRecord = z.infer<typeof CreatedRecord>;

/** The key list with each key still unread: api_keys_read (and orbit-mcp doctor) read them one by one. */
export const RawKeyList = z.union([
  z.looseObject({ data: z.array(z.unknown()) }).transform((list) => list.data),
  z.array(z.unknown()),
]);

export const keysPath = (id?: string) =>
  `/api/management/v1/api-keys${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

/** One line per key, the way a person scans a list of keys. */
export function keyLine(record: KeyRecord): string {
  const field = (name: string) => record[name];
  const parts = [record.id, field('name'), field('key_preview')].filter((v) => typeof v === 'string');
  if (field('disabled') === true) parts.push('disabled');
  const usd = field('daily_usd_limit');
  const requests = field('daily_request_limit');
  if (typeof usd === 'number') parts.push(`${usd} USD/day`);
  if (typeof requests === 'number') parts.push(`${requests} requests/day`);
  const expires = field('expires_at');
  if (typeof expires === 'string') parts.push(`expires ${expires}`);
  return parts.join('  ');
}
