import { z } from 'zod';
import { explainRefusal } from '../../src/credential-refusal.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import type { Api } from '../../src/upstream/client.js';
import { encodeCursor, type ListArgs, resolveQuery, Status } from './batch-query.js';

/**
 * Inline batches (spec 1 §2.1, §4.1) on the second API host, validated as the spec shapes them,
 * and the summary a person scans. The query and its cursors: batch-query.ts.
 */

const tokens = z.number().int().min(0);
export const Batch = z.looseObject({
  id: z.string(),
  object: z.literal('batch'),
  endpoint: z.string(),
  model: z.string(),
  status: Status,
  created_at: z.number().int(),
  finalized_at: z.number().int().nullish(),
  request_counts: z.looseObject({ total: tokens, completed: tokens, failed: tokens }),
  usage: z.looseObject({ total_tokens: tokens.optional() }).nullish(),
  error: z.record(z.string(), z.unknown()).nullish(),
});
export type Batch = z.infer<typeof Batch>;

const Page = z.looseObject({
  object: z.literal('list'),
  // Each batch is read on its own: one that cannot be read is named, the rest listed.
  data: z.array(z.unknown()),
  // Spec 1 §2.1 lists the cursors without saying they are always sent: the page's ends stand in.
  first_id: z.string().nullish(),
  last_id: z.string().nullish(),
  has_more: z.boolean(),
});

export interface BatchPage {
  batches: Batch[];
  has_more: boolean;
  older_cursor?: string;
  newer_cursor?: string;
  /** `1 batch not usable: batch_9 has no status`, when one was left out. */
  not_usable?: string;
}

export async function listBatches(api: Api, args: ListArgs): Promise<BatchPage> {
  const { position, filters, limit } = resolveQuery(args);
  const { data } = await api
    .request({
      method: 'GET',
      host: 'direct',
      path: '/api/beta/batches',
      query: {
        limit,
        ...(position ? { [position.direction]: position.id } : {}),
        status: filters.status,
        created_after: filters.created_after === undefined ? undefined : String(filters.created_after),
        created_before: filters.created_before === undefined ? undefined : String(filters.created_before),
      },
      schema: Page,
    })
    .catch((error: unknown) => {
      throw explainRefusal(error, { credential: 'api_key' });
    });
  const newer = position?.direction === 'before';
  const read = usableList(Batch.extend({ results: z.null().optional() }), data.data);
  const notUsable = leftOutNote('batch', read.left_out);
  const page: BatchPage = {
    batches: read.items,
    has_more: data.has_more,
    ...(notUsable ? { not_usable: notUsable } : {}),
  };
  // `has_more` speaks of the direction being paged; the way back always exists past a cursor.
  const lastId = data.last_id ?? read.items.at(-1)?.id;
  const firstId = data.first_id ?? read.items[0]?.id;
  if (lastId && (newer || data.has_more))
    page.older_cursor = encodeCursor({ direction: 'after', id: lastId }, filters, limit);
  if (firstId && (position?.direction === 'after' || (newer && data.has_more)))
    page.newer_cursor = encodeCursor({ direction: 'before', id: firstId }, filters, limit);
  return page;
}

/** The fields a person scans, times as ISO. */
export const BatchSummary = z.object({
  id: z.string(),
  status: z.string(),
  model: z.string(),
  endpoint: z.string(),
  created_at: z.string(),
  finalized_at: z.string().nullable(),
  requests: z.object({ total: z.number(), completed: z.number(), failed: z.number() }),
  total_tokens: z.number().optional(),
  error: z.unknown().optional(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

const time = (seconds: number) => new Date(seconds * 1000).toISOString();

export function summary(batch: Batch): BatchSummary {
  const { total, completed, failed } = batch.request_counts;
  return {
    id: batch.id,
    status: batch.status,
    model: batch.model,
    endpoint: batch.endpoint,
    created_at: time(batch.created_at),
    finalized_at:
      batch.finalized_at === null || batch.finalized_at === undefined ? null : time(batch.finalized_at),
    requests: { total, completed, failed },
    ...(batch.usage?.total_tokens !== undefined ? { total_tokens: batch.usage.total_tokens } : {}),
    ...(batch.error ? { error: batch.error } : {}),
  };
}

export const summaryLine = (b: BatchSummary): string =>
  `${b.id} ${b.status} ${b.model} ${b.created_at} ${b.requests.completed}/${b.requests.total} done${b.requests.failed ? `, ${b.requests.failed} failed` : ''}`;
