import type { Hono } from 'hono';
import { type BatchQuery, matches, parseBatchQuery } from '../batches/query.js';
import { inlineResults } from '../batches/results.js';
import { type Batch, batchesOf, findBatch, listItem, newerFirst } from '../batches/store.js';
import { requireKey } from '../billing.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * Inline batch listing on the second API host (spec 1 §4.1): the sandbox serves both hosts on one
 * port, so `direct_base_url` is the sandbox's own URL. Errors use the batch envelope.
 */
const PREFIX = '/api/beta/batches';

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope(PREFIX, 'batch');

  app.get(PREFIX, (c) => {
    const key = requireKey(c, ctx);
    const query = parseBatchQuery(new URL(c.req.url).searchParams);
    const { page, hasMore } = pageOf(batchesOf(ctx.state, key.account.id), query);
    return c.json({
      object: 'list',
      data: page.map(listItem),
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: hasMore,
    });
  });

  app.get(`${PREFIX}/:id`, (c) => {
    const key = requireKey(c, ctx);
    const batch = findBatch(ctx.state, key.account.id, c.req.param('id'));
    if (!batch) throw new SandboxError(404, `No batch ${c.req.param('id')} in this account.`);
    return c.json({ ...listItem(batch), results: inlineResults(batch) });
  });
}

/**
 * One page, newest first. `after` takes the next older records past the cursor, `before` the
 * adjacent newer ones; `has_more` says whether more exist in the direction being paged.
 */
function pageOf(all: Batch[], query: BatchQuery): { page: Batch[]; hasMore: boolean } {
  let candidates = all.filter((batch) => matches(query, batch));
  if (query.cursor) {
    const { id, direction } = query.cursor;
    const cursor = all.find((batch) => batch.id === id);
    if (!cursor) throw new SandboxError(400, `Invalid cursor: no batch ${id} in this account.`);
    candidates = candidates.filter((batch) =>
      direction === 'after' ? newerFirst(cursor, batch) < 0 : newerFirst(batch, cursor) < 0,
    );
    if (direction === 'before') {
      return { page: candidates.slice(-query.limit), hasMore: candidates.length > query.limit };
    }
  }
  return { page: candidates.slice(0, query.limit), hasMore: candidates.length > query.limit };
}
