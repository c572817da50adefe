import { z } from 'zod';
import { explainRefusal } from '../../src/credential-refusal.js';
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
  data: z.array(Batch.extend({ results: z.null() })),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

export interface BatchPage {
  batches: Batch[];
  has_more: boolean;
  older_cursor?: string;
  newer_cursor?: string;
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
  const page: BatchPage = { batches: data.data, has_more: data.has_more };
  // `has_more` speaks of the direction being paged; the way back always exists past a cursor.
  if (data.last_id && (newer || data.has_more))
    page.older_cursor = encodeCursor({ direction: 'after', id: data.last_id }, filters, limit);
  if (data.first_id && (position?.direction === 'after' || (newer && data.has_more)))
    page.newer_cursor = encodeCursor({ direction: 'before', id: data.first_id }, filters, limit);
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
