import { z } from 'zod';
import { confirmAction } from '../../src/confirm-action.js';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { createKey } from './create.js';
import { KeyRecord, keyLine, keysPath, managementCall } from './shared.js';

const token = 'management_token' as const;

/** An expiry as the API takes it: an ISO 8601 time with a timezone, in the future. */
function checkExpiry(value: string | null | undefined): void {
  if (value === undefined || value === null) return;
  const at = Date.parse(value);
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) || Number.isNaN(at) || at <= Date.now()) {
    throw new InputError('`expires_at` must be a future ISO 8601 time with a timezone.', {
      param: 'expires_at',
      fix: 'For example 2030-01-01T00:00:00Z; null removes the expiry (update).',
    });
  }
}

/** The rules of the key fields, checked here rather than in the listed schema (its tokens are paid each turn). */
function checkFields(fields: {
  name?: string;
  daily_usd_limit?: number | null;
  daily_request_limit?: number | null;
  expires_at?: string | null;
}): void {
  if (fields.name !== undefined && (fields.name.trim() === '' || fields.name.length > 100)) {
    throw new InputError('`name` must have 1 to 100 characters.', {
      param: 'name',
      fix: 'Give a short name such as "ci".',
    });
  }
  const usd = fields.daily_usd_limit;
  if (usd !== undefined && usd !== null && !(usd >= 0)) {
    throw new InputError('`daily_usd_limit` cannot be negative.', {
      param: 'daily_usd_limit',
      fix: 'Give USD per day, 0 or more, or null for no limit.',
    });
  }
  const requests = fields.daily_request_limit;
  if (requests !== undefined && requests !== null && !(Number.isInteger(requests) && requests >= 0)) {
    throw new InputError('`daily_request_limit` must be a whole number, 0 or more.', {
      param: 'daily_request_limit',
      fix: 'Give requests per day, or null for no limit.',
    });
  }
  checkExpiry(fields.expires_at);
}

function needId(id: string | undefined, operation: string): string {
  if (id) return id;
  throw new InputError(`Operation "${operation}" needs \`id\`.`, {
    param: 'id',
    fix: 'api_keys_read operation "list" shows the key ids.',
  });
}

export default defineTool({
  name: 'api_keys_write',
  title: 'Change API keys',
  description:
    'Create (secret to a private file, never shown here), update limits or expiry, disable or revoke an API key.',
  toolset: 'keys',
  operations: {
    create: { nature: 'write', credential: token },
    update: { nature: 'write', credential: token, idempotent: true },
    revoke: { nature: 'delete', credential: token, idempotent: true },
  },
  input: z.object({
    operation: z.enum(['create', 'update', 'revoke']),
    id: z.string().optional(),
    name: z.string().optional(),
    daily_usd_limit: z.number().nullable().optional(),
    daily_request_limit: z.number().nullable().optional(),
    expires_at: z.string().nullable().optional().describe('ISO time with zone'),
    disabled: z.boolean().optional(),
    confirm: z.string().optional().describe('key id, if asked'),
  }),
  output: z.object({ operation: z.string(), data: z.unknown() }),
  check: (a) =>
    nextCall(
      'api_keys_read',
      a.operation === 'update' ? { operation: 'get', id: a.id } : { operation: 'list' },
    ),
  async run(args, ctx) {
    const { operation, id, confirm, disabled, ...fields } = args;
    checkFields(fields);
    if (operation === 'create') {
      if (id !== undefined || disabled !== undefined) {
        throw new InputError('`id` and `disabled` belong to update, not create.', {
          param: id !== undefined ? 'id' : 'disabled',
          fix: 'Create with name and optional limits and expiry; update the key afterwards.',
        });
      }
      if (!fields.name) {
        throw new InputError('Operation "create" needs `name`.', {
          param: 'name',
          fix: 'Name the key, for example "ci".',
        });
      }
      return { operation, data: await createKey(ctx, { ...fields, name: fields.name.trim() }) };
    }
    const keyId = needId(id, operation);
    if (operation === 'update') {
      const body = { ...fields, ...(disabled !== undefined ? { disabled } : {}) };
      if (Object.values(body).every((value) => value === undefined)) {
        throw new InputError('Operation "update" needs something to change.', {
          param: 'name',
          fix: 'Pass name, daily_usd_limit, daily_request_limit, expires_at or disabled.',
        });
      }
      const { data } = await managementCall(ctx, 'api_keys:write', {
        method: 'PATCH',
        path: keysPath(keyId),
        body,
        schema: KeyRecord,
      });
      return { operation, data };
    }
    const { data: key } = await managementCall(ctx, 'api_keys:write', {
      method: 'GET',
      path: keysPath(keyId),
      schema: KeyRecord,
    });
    await confirmAction(ctx, {
      action: `Revoke the API key ${keyLine(key)}? Anything using it stops working at once. This cannot be undone.`,
      expected: keyId,
      what: 'the key id',
      given: confirm,
    });
    const { data } = await managementCall(ctx, 'api_keys:write', {
      method: 'DELETE',
      path: keysPath(keyId),
      schema: z.looseObject({ deleted: z.literal(true) }),
    });
    return { operation, data: { id: keyId, deleted: data.deleted } };
  },
});
