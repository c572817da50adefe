import { randomBytes } from 'node:crypto';
import type { RequestId, Server, ServerContext } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { SpendBudget } from '../budget/ledger.js';
import type { Config, Toolset } from '../config.js';
import type { ToolContext } from '../context.js';
import type { CredentialProvider } from '../credentials.js';
import { createFiles, type FilesConfig, type Trust } from '../files/files.js';
import type { JobPatch, JobStore, Jobs } from '../jobs/store.js';
import { createLogger, type LogLevel } from '../log.js';
import { traceRequests } from '../otel/mcp-requests.js';
import type { McpSpan, Tracing } from '../otel/types.js';
import type { Runtime } from '../runtime.js';
import { createRedactor } from '../secrets.js';
import { keyTenant, type Tenant, tenantNow } from '../tenant.js';
import type { HttpClient } from '../upstream/client.js';
import { IdempotencyKeys } from '../upstream/idempotency.js';
import { VERSION } from '../version.js';
import { type CallRecord, type CallStamp, callAttributes, type StampedCall } from './call-record.js';
import type { ToolCatalog } from './catalog.js';
import { clientRoots } from './client-roots.js';
import { registerCompletions } from './completions.js';
import type { AnyPrompt } from './define-prompt.js';
import type { ResourceDefinition } from './define-resource.js';
import type { Target } from './define-tool.js';
import { EraServer } from './era-server.js';
import { createStateCodec, stateCodecFor } from './input.js';
import { instructionsFor } from './instructions.js';
import { PromptOffer, registerPrompts } from './prompt-gets.js';
import { registerResources } from './resource-reads.js';
import { registerToolCalls } from './tool-calls.js';

/**
 * Checks a person's answers to form elicitations (the confirmations) against the schema asked;
 * nothing else of ours validates JSON Schema. The SDK's light validator is ample for those flat
 * forms, one instance serves every server, and the bin leaves the default (Ajv) out of its
 * bundle altogether (scripts/build.ts).
 */
const formAnswers = new CfWorkerJsonSchemaValidator();

/** What the server offers: the tool listing (modules loaded on first call), the resources and the prompts. */
export interface Registry {
  tools: ToolCatalog;
  resources: readonly ResourceDefinition[];
  prompts: readonly AnyPrompt[];
}

export interface ServerDeps extends Registry {
  config: Config;
  client: HttpClient;
  credentials: CredentialProvider;
  /** Output folder, operator-shared folders and the media registry (process-wide). */
  files: FilesConfig;
  /** `local` over stdio (the person's own machine), `remote` over HTTP (a stranger). */
  trust: Trust;
  /** Whose files and jobs these are: `local`, or the fingerprint of the caller's key (see localTenant). */
  tenant: Tenant;
  /** The process-wide job records; this connection sees its tenant's. */
  jobs: JobStore;
  /** What paid calls may spend; defaults to one budget for this server (a stdio process, an HTTP session). */
  budget?: SpendBudget;
  /** Secrets of this connection (the caller's key over HTTP), redacted from everything sent. */
  secrets?: readonly string[];
  target: Target;
  version: string;
  /** Toolsets for this connection (HTTP `?toolsets=`); defaults to the configuration's. */
  toolsets?: readonly Toolset[];
  instructions?: string;
  /** Idempotency-Keys kept across calls (the runtime's, in its store); one per process by default. */
  idempotency?: IdempotencyKeys;
  /** Signs the state of calls that ask the person something; one per process by default. */
  stateCodec?: ReturnType<typeof createStateCodec>;
  /** With tracing on (OTEL_EXPORTER_OTLP_* set): spans for requests and their platform calls. */
  tracing?: Tracing;
  /**
   * Told of each job a call records, with the call's request id: a 2025 HTTP session with a shared
   * store links the job to the call, so another replica can continue it.
   */
  onJobRecorded?: (request: RequestId, patch: JobPatch) => void;
  /** HTTP: the paid-call rate limit of the caller's key, counted before a paid call reserves. */
  beforeSpend?: () => Promise<void>;
  /** HTTP: the audit log, and who the caller is and which replica serves it, stamped on each record. */
  audit?: CallStamp & { write(record: StampedCall): void };
}

const CLIENT_LEVELS: Record<Exclude<LogLevel, 'silent'>, 'debug' | 'info' | 'warning' | 'error'> = {
  debug: 'debug',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

// For servers built without a runtime (tests, benches): made on first use, since every runtime
// passes its own and these would only sit on the start-up path.
let processDefaults: { codec: ReturnType<typeof createStateCodec>; idempotency: IdempotencyKeys } | undefined;
const processDefault = () => {
  processDefaults ??= { codec: createStateCodec(), idempotency: new IdempotencyKeys() };
  return processDefaults;
};

/**
 * 2026-07-28 cache hints: what this process lists is fixed by its configuration (toolsets, read-only,
 * the prompt and resource registries), so clients may keep the lists for an hour. Private, since an
 * HTTP client's `?toolsets=` shapes its own list. resources/list (the caller's media and jobs) and
 * resources/read (job states) change from call to call and keep the SDK's default: not cached.
 */
const LIST_CACHE_HINTS = {
  'tools/list': { ttlMs: 3_600_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 3_600_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'private' },
} as const;

/** How long a completion may wait for the platform (a catalog read); past it, nothing is suggested. */
const COMPLETION_READ_MS = 10_000;

/**
 * One MCP server for one connection (stdio), one 2025 session, or one 2026 request: the low-level
 * SDK Server with our own dispatch (tools from the catalog, resources from the registry). The
 * same instance shape serves both protocol eras; the serving entries pick the era.
 */
export function createMcpServer(deps: ServerDeps): Server {
  const stateCodec = deps.stateCodec ?? processDefault().codec;
  const idempotency = deps.idempotency ?? processDefault().idempotency;
  const instructions = deps.instructions ?? instructionsFor(deps.target);
  const server = new EraServer(
    { name: 'orbit-mcp', title: 'Orbit', version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
      instructions,
      requestState: { verify: stateCodec.verify },
      jsonSchemaValidator: formAnswers,
      cacheHints: LIST_CACHE_HINTS,
    },
  );
  // Before any handler is registered, so each one runs inside its request's span.
  const traceOf =
    deps.tracing && traceRequests(server, deps.tracing, deps.trust === 'local' ? 'pipe' : 'tcp');
  const redactor = createRedactor(deps.secrets);
  const stderrLog = createLogger(deps.config.logLevel, undefined, redactor);
  const toolsets = deps.toolsets ?? deps.tools.toolsetsFor(deps.config.toolsets);
  const listed = deps.tools.enabled(toolsets, deps.config.readOnly);
  const files = createFiles(deps.files, {
    trust: deps.trust,
    tenant: deps.tenant,
    // A remote client's roots are folders on its own machine: never asked for, never used.
    clientRoots: deps.trust === 'local' ? clientRoots(server) : undefined,
    warn: (message) => stderrLog.warning(message),
  });
  const jobs = deps.jobs.forTenant(deps.tenant);
  const onJobRecorded = deps.onJobRecorded;
  const budget = deps.budget ?? new SpendBudget(deps.config.maxSpendUsd);
  const audit = deps.audit;

  /** A call's record, stamped with its caller, on its span and in the audit log. */
  const callDone = (record: CallRecord, span: McpSpan | undefined) => {
    const stamped: StampedCall = {
      ...(audit ? { tenant: audit.tenant, replica: audit.replica } : {}),
      ...record,
      // A platform that echoes a key in its request id must not put it in the log.
      request_ids: record.request_ids.map((id) => redactor.text(id)),
    };
    span?.annotate(callAttributes(stamped));
    audit?.write(stamped);
  };

  /** Logs go to stderr and, at the level the client asked for, to the client with this request. */
  const logFor = (ctx: ServerContext) =>
    createLogger(
      deps.config.logLevel,
      [
        (level, line) => process.stderr.write(`[orbit-mcp] ${level}: ${line}\n`),
        (level, line) => {
          ctx.mcpReq.log(CLIENT_LEVELS[level], line, 'orbit-mcp').catch(() => {});
        },
      ],
      redactor,
    );

  const contextFor = (
    ctx: ServerContext,
    progress: ToolContext['progress'] = { report() {} },
    extra: Partial<Pick<ToolContext, 'confirm'>> & { onRequestId?: (requestId: string) => void } = {},
  ): ToolContext => {
    const log = logFor(ctx);
    return {
      target: deps.target,
      api: deps.client.api({
        credentials: deps.credentials,
        signal: ctx.mcpReq.signal,
        log,
        trace: traceOf?.(ctx)?.platform,
        onRequestId: extra.onRequestId,
      }),
      progress,
      signal: ctx.mcpReq.signal,
      log,
      credentials: deps.credentials,
      files,
      jobs: onJobRecorded ? jobsTold(jobs, ctx.mcpReq.id, onJobRecorded) : jobs,
      budget,
      idempotency,
      confirm: extra.confirm ?? (async () => 'unsupported'),
    };
  };

  registerToolCalls({
    server,
    tools: deps.tools,
    listed,
    describeEnabled: `Enabled toolsets: ${toolsets.join(', ')}${deps.config.readOnly ? ' (read-only)' : ''}.`,
    redactor,
    budget,
    stateCodec,
    contextFor,
    log: stderrLog,
    beforeSpend: deps.beforeSpend,
    // Skipped, record and all, when nobody reads it (stdio without tracing).
    onCallDone: audit || traceOf ? (record, ctx) => callDone(record, traceOf?.(ctx)) : undefined,
  });
  registerResources({
    server,
    resources: deps.resources,
    redactor,
    contextFor: (ctx) => contextFor(ctx),
    log: stderrLog,
  });
  const offer = new PromptOffer(deps.prompts, {
    listed,
    toolsets,
    readOnly: deps.config.readOnly,
    target: deps.target,
  });
  registerPrompts({ server, offer, redactor });
  registerCompletions({
    server,
    offer,
    resources: deps.resources,
    contextFor: (filled) => ({
      ...offer.context,
      // A catalog read is shared by the completions typed meanwhile, and clients cancel a stale
      // completion as the person types: it is bounded on its own, not by the request that began it.
      api: deps.client.api({
        credentials: deps.credentials,
        signal: AbortSignal.timeout(COMPLETION_READ_MS),
        log: stderrLog,
      }),
      tenant: tenantNow(deps.tenant),
      arguments: filled,
    }),
    log: stderrLog,
  });
  return server;
}

/** The tenant's jobs, each record also told to `onJob` with the id of the call that made it. */
function jobsTold(
  jobs: Jobs,
  request: RequestId,
  onJob: (request: RequestId, patch: JobPatch) => void,
): Jobs {
  return {
    ...jobs,
    record(patch) {
      onJob(request, patch);
      jobs.record(patch);
    },
  };
}

/** The server of the person's own process (stdio, or a program hosting it in process): one tenant, trusted. */
export function createLocalServer(runtime: Runtime, registry: Registry): Server {
  return createMcpServer({
    ...registry,
    config: runtime.config,
    client: runtime.client,
    credentials: runtime.credentials,
    files: runtime.files,
    jobs: runtime.jobs,
    idempotency: runtime.idempotency,
    stateCodec: stateCodecFor(runtime.stateKey),
    trust: 'local',
    tenant: localTenant(runtime),
    version: VERSION,
    target: runtime.target,
    tracing: runtime.tracing,
  });
}

/**
 * Whose jobs and media a person's own process keeps. On its own memory: `local`. On a store other
 * people's processes share: its key's, as over HTTP, so a person's processes share their jobs and
 * nobody else's; read at each use, since signing in or out changes the key. Without a key, this
 * process's alone.
 */
export function localTenant(runtime: Pick<Runtime, 'store' | 'credentials'>): Tenant {
  if (!runtime.store.shared) return 'local';
  const alone = `process-${randomBytes(16).toString('hex')}`;
  return () => {
    const key = runtime.credentials.get('api_key');
    return key ? keyTenant(key) : alone;
  };
}
