import { nextNumber } from '../accounts/people.js';
import type { SandboxState } from '../state.js';
import { pad } from '../util.js';

/** Inline batches (spec 1 §2.1, §3). The list route is all the spec shows, so they are seeded. */

export const BATCH_STATUSES = [
  'validating',
  'in_progress',
  'finalizing',
  'completed',
  'failed',
  'expired',
  'cancelling',
  'cancelled',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export interface Batch {
  id: string;
  accountId: string;
  endpoint: '/v1/chat/completions' | '/v1/responses';
  model: string;
  status: BatchStatus;
  /** Unix seconds. */
  created_at: number;
  finalized_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  error: { code: string; message: string } | null;
}

const store = (state: SandboxState) => state.collection<Batch>('batches');

/** Newest first; equal `created_at` falls back to the id, so every batch has one place. */
export function newerFirst(a: Batch, b: Batch): number {
  return b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export const batchesOf = (state: SandboxState, accountId: string): Batch[] =>
  [...store(state).values()].filter((batch) => batch.accountId === accountId).sort(newerFirst);

export function findBatch(state: SandboxState, accountId: string, id: string): Batch | undefined {
  const batch = store(state).get(id);
  return batch?.accountId === accountId ? batch : undefined;
}

/** The list form: `results` is always null there, completed batches included. */
export function listItem(batch: Batch) {
  const { accountId: _account, ...fields } = batch;
  return { ...fields, object: 'batch', completion_window: '24h', results: null };
}

const MODELS = ['openai/gpt-sandbox', 'anthropic/claude-sandbox', 'sandbox/reasoner'];
/** The newest twelve are still running (2 h apart, all within the 24 h window); older ones ended. */
const RUNNING: BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];
const ENDED: BatchStatus[] = [
  'completed',
  'completed',
  'failed',
  'completed',
  'expired',
  'cancelled',
  'completed',
];
const SPACING_S = 7200;
/** Pairs seeded with the same `created_at`, so cursor walks meet ties. */
const TIED = new Set([21, 41]);

/** Seeds `count` batches for an account, newest `newestAt` (Unix seconds), older every 2 h. */
export function seedBatches(state: SandboxState, accountId: string, count: number, newestAt: number): void {
  // Made oldest first so ids grow with time.
  for (let i = count - 1; i >= 0; i -= 1) {
    const n = nextNumber(state, 'batches');
    const status =
      i < 12 ? (RUNNING[i % RUNNING.length] ?? 'validating') : (ENDED[i % ENDED.length] ?? 'completed');
    const created = newestAt - (TIED.has(i) ? i - 1 : i) * SPACING_S;
    const total = 5 + ((i * 7) % 40);
    store(state).set(`batch_${pad(n)}`, {
      id: `batch_${pad(n)}`,
      accountId,
      endpoint: i % 3 === 2 ? '/v1/responses' : '/v1/chat/completions',
      model: MODELS[i % MODELS.length] ?? 'openai/gpt-sandbox',
      status,
      created_at: created,
      ...progress(status, total, created),
    });
  }
}

function progress(
  status: BatchStatus,
  total: number,
  created: number,
): Omit<Batch, 'id' | 'accountId' | 'endpoint' | 'model' | 'status' | 'created_at'> {
  const usage = (done: number) => ({
    prompt_tokens: done * 120,
    completion_tokens: done * 80,
    total_tokens: done * 200,
  });
  const counts = (completed: number, failed: number) => ({ total, completed, failed });
  switch (status) {
    case 'validating':
      return { finalized_at: null, request_counts: counts(0, 0), usage: null, error: null };
    case 'in_progress':
    case 'cancelling': {
      const done = Math.floor(total / 2);
      return { finalized_at: null, request_counts: counts(done, 0), usage: usage(done), error: null };
    }
    case 'finalizing':
      return {
        finalized_at: null,
        request_counts: counts(total - 1, 1),
        usage: usage(total - 1),
        error: null,
      };
    case 'completed':
      return {
        finalized_at: created + 1800,
        request_counts: counts(total - 1, 1),
        usage: usage(total - 1),
        error: null,
      };
    case 'failed':
      return {
        finalized_at: created + 60,
        request_counts: counts(0, 0),
        usage: null,
        error: { code: 'invalid_batch_input', message: 'Line 3 is not a valid request object.' },
      };
    case 'expired': {
      const done = Math.floor(total / 3);
      return {
        finalized_at: created + 86_400,
        request_counts: counts(done, total - done),
        usage: usage(done),
        error: { code: 'batch_expired', message: 'The batch did not complete within its 24h window.' },
      };
    }
    case 'cancelled': {
      const done = Math.floor(total / 4);
      return {
        finalized_at: created + 900,
        request_counts: counts(done, 0),
        usage: usage(done),
        error: null,
      };
    }
  }
}
