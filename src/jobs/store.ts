/**
 * Last known state of every long job this process started or looked at, for `orbit://jobs/{id}`
 * and for resuming a wait. Kept in memory (jobs live on the platform; this is a view), bounded,
 * and kept per tenant: one caller never reads another's jobs.
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

export type JobPatch = Partial<JobRecord> & Pick<JobRecord, 'id' | 'kind'>;

/** One tenant's view of the jobs. */
export interface Jobs {
  /** Creates or updates a job; fields not given keep their value. */
  record(patch: JobPatch): JobRecord;
  get(id: string): JobRecord | undefined;
  /** Newest first. */
  list(): JobRecord[];
}

const MAX_JOBS = 5_000;
const MAX_JOBS_PER_TENANT = 500;

/** The process-wide store; each connection sees its tenant's part through `forTenant`. */
export class JobStore {
  private readonly jobs = new Map<string, JobRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  forTenant(tenant: string): Jobs {
    const prefix = `${tenant}|`;
    return {
      record: (patch) => this.upsert(`${prefix}${patch.id}`, prefix, patch),
      get: (id) => this.jobs.get(`${prefix}${id}`),
      list: () =>
        [...this.jobs.entries()]
          .filter(([key]) => key.startsWith(prefix))
          .map(([, job]) => job)
          .reverse(),
    };
  }

  private upsert(key: string, prefix: string, patch: JobPatch): JobRecord {
    const stamp = new Date(this.now()).toISOString();
    const previous = this.jobs.get(key);
    const record: JobRecord = {
      status: 'pending',
      next: '',
      polls: 0,
      created_at: stamp,
      ...previous,
      ...definedOnly(patch),
      id: patch.id,
      kind: patch.kind,
      updated_at: stamp,
    };
    // Re-inserted, so Map order is the order of last change: the oldest go first below.
    this.jobs.delete(key);
    this.jobs.set(key, record);
    let mine = 0;
    for (const other of this.jobs.keys()) if (other.startsWith(prefix)) mine++;
    if (mine > MAX_JOBS_PER_TENANT) {
      for (const other of this.jobs.keys()) {
        if (other.startsWith(prefix)) {
          this.jobs.delete(other);
          break;
        }
      }
    }
    if (this.jobs.size > MAX_JOBS) this.jobs.delete(this.jobs.keys().next().value!);
    return record;
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
