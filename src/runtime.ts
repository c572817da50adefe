import { randomBytes } from 'node:crypto';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { CredentialStore } from './auth/store.js';
import { StoredCredentials } from './auth/stored.js';
import type { Config } from './config.js';
import type { Target } from './context.js';
import { type Credential, type CredentialProvider, StaticCredentials } from './credentials.js';
import { type FilesConfig, outputFolder } from './files/files.js';
import { SharedMedia } from './files/media-shared.js';
import { MediaStore } from './files/media-store.js';
import { JobStore } from './jobs/store.js';
import { createLogger, registerSecret } from './log.js';
import type { Tracing } from './otel/types.js';
import { openStore } from './store/open.js';
import { sharedSecret } from './store/shared-secret.js';
import type { Store } from './store/store.js';
import { HttpClient } from './upstream/client.js';
import { IdempotencyKeys } from './upstream/idempotency.js';
import { USER_AGENT } from './version.js';

export type { Target };

/** The process-wide pieces every connection shares: configuration, the HTTP pool, the default credentials. */
export interface Runtime {
  config: Config;
  target: Target;
  client: HttpClient;
  credentials: CredentialProvider;
  files: FilesConfig;
  /** Job records of every tenant; a connection sees its own. */
  jobs: JobStore;
  /** Where state that outlives a request lives: this process's memory, or Redis shared by replicas. */
  store: Store;
  /** Idempotency-Keys of creates that may run again, in the store. */
  idempotency: IdempotencyKeys;
  /** Signs what a 2026-07-28 call that asks the person hands the client; shared by replicas on a store. */
  stateKey: Uint8Array;
  /** This process's name in logs and call leases. */
  replicaId: string;
  /** Set only when tracing is on; its spans are flushed by close(). */
  tracing?: Tracing;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Run against an in-process sandbox started on a free loopback port. */
  sandbox?: boolean;
  /** Traces, when the environment asks for them (see src/otel). */
  tracing?: Tracing;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  // A password in the store URL is a secret like the others.
  if (config.store) {
    const password = new URL(config.store).password;
    if (password) registerSecret(decodeURIComponent(password));
  }
  // Before the sandbox starts: a store that cannot be reached must leave nothing holding the process.
  const store = await openStore(config.store);

  let target: Target;
  let stopSandbox: (() => Promise<void>) | undefined;
  const credentials: Credential[] = [];
  if (options.sandbox) {
    const { startSandbox, SANDBOX_MANAGEMENT_TOKENS, SANDBOX_PEOPLE } = await import('./sandbox/index.js');
    // Streams pace their chunks like a real model, so a person watching sees the answer grow.
    // Nobody reads the request log of a product sandbox beyond the last few calls.
    const sandbox = await startSandbox({ quiet: true, timing: { streamChunkDelayMs: 20 }, maxRecorded: 200 });
    stopSandbox = () => sandbox.close();
    target = {
      kind: 'sandbox',
      baseUrl: sandbox.url,
      demoKey: sandbox.demoKey,
      teeRootsPath: sandbox.teeRootsPath,
    };
    credentials.push({ kind: 'api_key', value: sandbox.demoKey, source: 'sandbox' });
    // The demo person's management token (every scope) and session, so keys, usage quotas, teams
    // and settings work offline too; ones set in the environment win.
    if (!config.managementToken)
      credentials.push({ kind: 'management_token', value: SANDBOX_MANAGEMENT_TOKENS.all, source: 'sandbox' });
    if (!config.session)
      credentials.push({ kind: 'session', value: SANDBOX_PEOPLE.demo.session, source: 'sandbox' });
  } else if (config.baseUrl) {
    target = { kind: 'platform', baseUrl: config.baseUrl };
  } else {
    target = { kind: 'none' };
  }
  if (target.kind !== 'sandbox') {
    if (config.apiKey) credentials.push({ kind: 'api_key', value: config.apiKey, source: 'env' });
  }
  if (config.managementToken)
    credentials.push({ kind: 'management_token', value: config.managementToken, source: 'env' });
  if (config.session) credentials.push({ kind: 'session', value: config.session, source: 'env' });
  for (const credential of credentials) registerSecret(credential.value);

  // No base URL means no platform, never the sandbox: calls then say how to configure one.
  const baseUrl = target.kind === 'none' ? undefined : target.baseUrl;
  const client = new HttpClient({
    baseUrl,
    directBaseUrl: target.kind === 'sandbox' ? target.baseUrl : config.directBaseUrl,
    timeoutMs: config.timeoutMs,
    retry: { maxRetries: config.maxRetries },
    userAgent: USER_AGENT,
  });
  // Against a platform, a person's own process also uses (and can sign in to get) a stored key.
  const log = createLogger(config.logLevel);
  const stored =
    target.kind === 'platform'
      ? new StoredCredentials({
          explicit: credentials,
          platform: target.baseUrl,
          store: new CredentialStore(undefined, (message) => log.warning(message)),
          log,
        })
      : undefined;
  // Desktop assistants start servers in arbitrary folders (often `/`); the home folder is findable.
  const outputDir = config.outputDir ?? join(homedir(), 'orbit-output');
  return {
    config,
    target,
    client,
    credentials: stored ?? new StaticCredentials(credentials),
    files: {
      outputDir,
      allowDirs: config.allowDirs,
      // A remote tenant's forgotten files (in its own folder) go from the disk too; a person's own
      // files stay, whatever their tenant.
      media: new MediaStore(
        {},
        (entry) =>
          dirname(entry.path) === outputFolder({ outputDir }, { trust: 'remote', tenant: entry.tenant }),
        store.shared ? new SharedMedia(store) : undefined,
      ),
    },
    jobs: new JobStore({
      store,
      // One process bounds what its memory holds; a shared store holds every replica's tenants.
      limits: store.shared ? { total: 200_000 } : {},
      onError: (error) => log.warning(`could not keep a job record: ${error.message}`),
    }),
    store,
    idempotency: new IdempotencyKeys(store),
    stateKey: await sharedSecret(store, 'request-state'),
    replicaId: config.replicaId ?? `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`,
    tracing: options.tracing,
    async close() {
      // Spans of the last calls leave before the process does.
      await options.tracing?.shutdown().catch(() => {});
      stored?.close();
      await client.close();
      await store.close();
      await stopSandbox?.();
    },
  };
}
