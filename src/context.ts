/**
 * What a tool gets, and all it knows of the world: the platform's API, progress, cancellation, a
 * log, credentials, files and jobs, each already scoped to the caller. Nothing here knows a
 * transport or the MCP SDK; the layers below it (http, files, jobs, auth) know nothing of tools.
 */
import type { SpendBudget } from './budget/ledger.js';
import type { CredentialProvider } from './credentials.js';
import type { Files } from './files/files.js';
import type { Jobs } from './jobs/store.js';
import type { Logger } from './log.js';
import type { Progress } from './progress.js';
import type { Api } from './upstream/client.js';
import type { IdempotencyKeys } from './upstream/idempotency.js';

export type { SavedFile } from './files/files.js';
export type { Progress } from './progress.js';

/** Which platform the server talks to; `none` until a base URL is set. */
export type Target =
  | { kind: 'platform'; baseUrl: string }
  | { kind: 'sandbox'; baseUrl: string; demoKey: string; teeRootsPath: string }
  | { kind: 'none' };

export interface ToolContext {
  target: Target;
  api: Api;
  progress: Progress;
  signal: AbortSignal;
  log: Logger;
  credentials: CredentialProvider;
  files: Files;
  /** This caller's long jobs (video, speech, transcription...), for waiting and `orbit://jobs/`. */
  jobs: Jobs;
  /** What paid calls may still spend; a tool with a pre-charge estimate checks it before sending. */
  budget: SpendBudget;
  /** Idempotency-Keys of creates that may run again (in the store: any replica replays them). */
  idempotency: IdempotencyKeys;
  /**
   * Asks the person to confirm a destructive action (form elicitation), showing exactly what will
   * happen. `unsupported` when the client cannot ask; the tool then needs its own `confirm` argument.
   */
  confirm(message: string): Promise<'accepted' | 'declined' | 'unsupported'>;
}
