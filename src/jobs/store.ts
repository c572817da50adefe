import { z } from 'zod';
import { NextCall } from '../next-call.js';
import { MemoryStore } from '../store/memory.js';
import { type Store, storeKey } from '../store/store.js';
import { type Tenant, tenantNow } from '../tenant.js';

/**
 * Last known state of every long job started or looked at, for `orbit://jobs/{id}` and for
 * resuming a wait. Jobs live on the platform; this is a view, kept per tenant (one caller never
 * reads another's jobs), bounded, and expiring. In memory by default; with a shared store every
 * replica reads the jobs another started.
 */
export interface JobRecord {
  id: string;
  /** What kind of job: video, speech, transcription, evaluation... (open: areas add their own). */
  kind: string;
  model?: string;
  /** The platform's own status word (IN_QUEUE, pending, completed...). */
  status: string;
  /** The last progress line. */
  message?: string;
  /** Share done in [0,1], when known. */
  progress?: number;
  /** The call that continues this job while it runs; null once it ended. */
  next: NextCall | null;
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

export type JobPatch = Partial<JobRecord> & Pick<JobRecord, 'id' | 'kind'>;

/** One tenant's view of the jobs. */
export interface Jobs {
  /** Creates or updates a job; fields not given keep their value. Written in the background, in order. */
  record(patch: JobPatch): void;
  get(id: string): Promise<JobRecord | undefined>;
  /** Newest change first. */
  list(): Promise<JobRecord[]>;
  /**
   * Claims the job for one holder, atomically in the store (any replica) or in memory: true for
   * the one claimant that got it. Used so that one thing (a paid quote) is done exactly once.
   */
  claim(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Lets the claim go, only while `holder` still holds it (the attempt failed and may be retried). */
  unclaim(id: string, holder: string): Promise<void>;
}

/** Checked when read back: a record comes from the store, which other processes write too. */
const StoredJob = z.looseObject({
  id: z.string(),
  kind: z.string(),
  model: z.string().optional(),
  status: z.string(),
  message: z.string().optional(),
  progress: z.number().optional(),
  // A record an older version wrote holds a sentence: read as no continuation.
  next: NextCall.nullable().catch(null),
  polls: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  cost: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  resume: z.record(z.string(), z.unknown()).optional(),
});

export interface JobLimits {
  perTenant: number;
  /** Jobs kept in all, every tenant together. */
  total: number;
  /** A job nobody touched for this long is forgotten (it stays on the platform). */
  ttlMs: number;
}

const DEFAULT_JOB_LIMITS: JobLimits = { perTenant: 500, total: 5_000, ttlMs: 7 * 24 * 3_600_000 };

export interface JobStoreOptions {
  store?: Store;
  limits?: Partial<JobLimits>;
  now?: () => number;
  /** A write that failed (the store was unreachable): logged, the call goes on. */
  onError?: (error: Error) => void;
}

/** The process-wide book of jobs; each connection sees its tenant's part through `forTenant`. */
export class JobStore {
  private readonly store: Store;
  private readonly limits: JobLimits;
  private readonly now: () => number;
  private sequence = 0;

  constructor(private readonly options: JobStoreOptions = {}) {
    this.store = options.store ?? new MemoryStore();
    this.limits = { ...DEFAULT_JOB_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  forTenant(tenant: Tenant): Jobs {
    return {
      record: (patch) => this.record(tenantNow(tenant), patch),
      get: (id) => this.get(tenantNow(tenant), id),
      list: () => this.list(tenantNow(tenant)),
      claim: (id, holder, ttlMs) => this.store.claim(this.claimKey(tenantNow(tenant), id), holder, ttlMs),
      unclaim: async (id, holder) => {
        await this.store.release(this.claimKey(tenantNow(tenant), id), holder);
      },
    };
  }

  private claimKey(tenant: string, id: string): string {
    return storeKey('job-claim', tenant, id);
  }

  private record(tenant: string, patch: JobPatch): void {
    const stamp = this.now();
    const fields: Record<string, string> = { updated_at: JSON.stringify(new Date(stamp).toISOString()) };
    for (const [name, value] of Object.entries(patch))
      if (value !== undefined) fields[name] = JSON.stringify(value);
    const initial = {
      status: JSON.stringify('pending'),
      next: 'null',
      polls: '0',
      created_at: fields.updated_at!,
    };
    // Ties broken by order within this process, so "changed longest ago" is exact here.
    const score = stamp + (this.sequence++ % 1_000) / 1_000;
    const { perTenant, total, ttlMs } = this.limits;
    // Issued together, in order: a read that follows sees this write.
    const writes = [
      this.store.merge(this.recordKey(tenant, patch.id), fields, ttlMs, initial),
      this.store
        .index(this.indexKey(tenant), patch.id, score, { maxItems: perTenant, ttlMs })
        .then((gone) => this.forget(tenant, gone)),
      this.store
        .index(storeKey('jobs-all'), `${tenant}|${patch.id}`, score, { maxItems: total, ttlMs })
        .then((gone) => Promise.all(gone.map((member) => this.forgetEverywhere(member)))),
    ];
    Promise.all(writes).catch((error: unknown) => this.options.onError?.(error as Error));
  }

  private async get(tenant: string, id: string): Promise<JobRecord | undefined> {
    return decode(await this.store.fields(this.recordKey(tenant, id)));
  }

  private async list(tenant: string): Promise<JobRecord[]> {
    const ids = await this.store.members(this.indexKey(tenant), { limit: this.limits.perTenant });
    const records = await this.store.fieldsOfMany(ids.map((id) => this.recordKey(tenant, id)));
    return records.map(decode).filter((job): job is JobRecord => job !== undefined);
  }

  private async forget(tenant: string, ids: readonly string[]): Promise<void> {
    if (ids.length) await this.store.delete(...ids.map((id) => this.recordKey(tenant, id)));
  }

  private async forgetEverywhere(member: string): Promise<void> {
    const split = member.indexOf('|');
    const tenant = member.slice(0, split);
    const id = member.slice(split + 1);
    await Promise.all([this.store.unindex(this.indexKey(tenant), id), this.forget(tenant, [id])]);
  }

  private recordKey(tenant: string, id: string): string {
    return storeKey('job', tenant, id);
  }

  private indexKey(tenant: string): string {
    return storeKey('jobs', tenant);
  }
}

function decode(fields: Record<string, string> | undefined): JobRecord | undefined {
  if (!fields) return undefined;
  const parsed: Record<string, unknown> = {};
  try {
    for (const [name, value] of Object.entries(fields)) parsed[name] = JSON.parse(value);
  } catch {
    return undefined;
  }
  const job = StoredJob.safeParse(parsed);
  return job.success ? job.data : undefined;
}
