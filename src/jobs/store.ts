import { createHash } from 'node:crypto';
import type { ToolContext } from '../mcp/define-tool.js';

/**
 * Last known state of every long job this process started or looked at, for `orbit://jobs/{id}`
 * and for resuming a wait. Kept in memory (jobs live on the platform; this is a view), bounded,
 * and scoped to the platform and the API key, so one user never reads another's jobs.
 */
export type JobKind = 'video' | 'speech' | 'transcription';

export interface JobRecord {
  id: string;
  kind: JobKind;
  model?: string;
  /** The platform's own status word (IN_QUEUE, pending, completed...). */
  status: string;
  /** The last progress line. */
  message?: string;
  /** Share done in [0,1], when known. */
  progress?: number;
  /** The tool and arguments that continue or finish this job. */
  next: string;
  polls: number;
  created_at: string;
  updated_at: string;
  cost?: Record<string, number | string>;
  /** Where the result is, once there is one: URLs and saved files. */
  result?: Record<string, unknown>;
  error?: string;
  /** What a later call needs to resume polling (the transcription ticket, the speech model). */
  resume?: Record<string, unknown>;
}

const MAX_JOBS = 500;

export class JobStore {
  private readonly jobs = new Map<string, JobRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Creates or updates a job; fields not given keep their value. */
  upsert(scope: string, patch: Partial<JobRecord> & Pick<JobRecord, 'id' | 'kind'>): JobRecord {
    const key = `${scope}|${patch.id}`;
    const stamp = new Date(this.now()).toISOString();
    const previous = this.jobs.get(key);
    const record: JobRecord = {
      status: 'pending',
      next: '',
      polls: 0,
      created_at: stamp,
      ...previous,
      ...stripUndefined(patch),
      id: patch.id,
      kind: patch.kind,
      updated_at: stamp,
    };
    this.jobs.delete(key);
    this.jobs.set(key, record);
    if (this.jobs.size > MAX_JOBS) this.jobs.delete(this.jobs.keys().next().value as string);
    return record;
  }

  get(scope: string, id: string): JobRecord | undefined {
    return this.jobs.get(`${scope}|${id}`);
  }

  /** This scope's jobs, newest first. */
  list(scope: string): JobRecord[] {
    const prefix = `${scope}|`;
    return [...this.jobs.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, job]) => job)
      .reverse();
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The process-wide store. */
export const jobs = new JobStore();

/** Platform plus a fingerprint of the API key (never the key itself). */
export function jobScope(ctx: Pick<ToolContext, 'api' | 'credentials'>): string {
  const key = ctx.credentials.get('api_key')?.value ?? '';
  return `${ctx.api.baseUrl}|${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
