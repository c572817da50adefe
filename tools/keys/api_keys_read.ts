import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { KeyRecord, keyLine, keysPath, managementCall, RawKeyList } from './shared.js';

const read = { nature: 'read', credential: 'management_token' } as const;

export default defineTool({
  name: 'api_keys_read',
  title: 'Read API keys',
  description:
    'API keys, or one: name, preview, spending and request limits, expiry, spent today; never secrets.',
  toolset: 'keys',
  operations: { list: read, get: read },
  input: z.object({ operation: z.enum(['list', 'get']), id: z.string().optional() }),
  // Loose: a `not_usable` note passes without being listed (tokens).
  output: z.looseObject({ operation: z.string(), data: z.unknown() }),
  async run(args, ctx) {
    if (args.operation === 'list') {
      const { data } = await managementCall(ctx, 'api_keys:read', {
        method: 'GET',
        path: keysPath(),
        schema: RawKeyList,
      });
      // Each key read on its own: one that cannot be used is left out and named.
      const keys = usableList(KeyRecord, data, { nameKeys: ['id', 'name'] });
      const notUsable = leftOutNote('key', keys.left_out);
      return { operation: args.operation, data: keys.items, ...(notUsable ? { not_usable: notUsable } : {}) };
    }
    if (!args.id) {
      throw new InputError('Operation "get" needs `id`.', {
        param: 'id',
        fix: 'Pass a key id; operation "list" shows them.',
      });
    }
    const { data } = await managementCall(ctx, 'api_keys:read', {
      method: 'GET',
      path: keysPath(args.id),
      schema: KeyRecord,
    });
    return { operation: args.operation, data };
  },
  text: (r) => {
    const parsed = z.array(KeyRecord).safeParse(r.data);
    const left = typeof r.not_usable === 'string' ? [`(${r.not_usable}.)`] : [];
    if (parsed.success) return [...parsed.data.map(keyLine), ...left].join('\n') || 'No API keys.';
    return JSON.stringify(r.data);
  },
});
