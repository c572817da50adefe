import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SpendBudget } from '../budget.js';
import type { Config, Toolset } from '../config.js';
import type { CredentialProvider } from '../credentials.js';
import { createFiles, type FilesConfig, type Trust } from '../files/files.js';
import type { HttpClient } from '../http/client.js';
import type { JobStore } from '../jobs/store.js';
import { createLogger, type LogLevel } from '../log.js';
import { createRedactor } from '../secrets.js';
import { parseArguments } from './arguments.js';
import type { ToolCatalog } from './catalog.js';
import { confirmer } from './confirm.js';
import { matchTemplate, type ResourceDefinition } from './define-resource.js';
import {
  type AnyTool,
  type OperationSpec,
  operationOf,
  type Target,
  type ToolContext,
} from './define-tool.js';
import { instructionsFor } from './instructions.js';
import { createProgress } from './progress.js';
import { outputErrorFrom, renderError, renderResult, type ToolResult } from './render.js';
import { clientRoots } from './roots.js';
import { signInPrompt } from './sign-in.js';
import { ToolTaskStore } from './tasks.js';

/** What the server offers: the tool listing (modules loaded on first call) and the resources. */
export interface Registry {
  tools: ToolCatalog;
  resources: readonly ResourceDefinition[];
}

export interface ServerDeps extends Registry {
  config: Config;
  client: HttpClient;
  credentials: CredentialProvider;
  /** Output folder, operator-shared folders and the media registry (process-wide). */
  files: FilesConfig;
  /** `local` over stdio (the person's own machine), `remote` over HTTP (a stranger). */
  trust: Trust;
  /** Whose files and jobs these are: `local`, or the fingerprint of the caller's key over HTTP. */
  tenant: string;
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
}

const LEVELS: LogLevel[] = ['debug', 'info', 'warning', 'error'];

export function createMcpServer(deps: ServerDeps): Server {
  const taskStore = new ToolTaskStore();
  const server = new Server(
    { name: 'orbit-mcp', title: 'Orbit', version: deps.version },
    {
      capabilities: {
        tools: {},
        resources: {},
        logging: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      instructions: deps.instructions ?? instructionsFor(deps.target),
      taskStore,
    },
  );
  const closeServer = server.close.bind(server);
  server.close = async () => {
    taskStore.close();
    await closeServer();
  };
  const redactor = createRedactor(deps.secrets);
  const toolsets = deps.toolsets ?? deps.config.toolsets;
  const listed = deps.tools.enabled(toolsets, deps.config.readOnly);
  const enabled = new Set(listed.map((entry) => entry.name));
  // Logs go to stderr and, when the client asked for them, to the client as notifications.
  const log = createLogger(
    deps.config.logLevel,
    [
      (level, line) => process.stderr.write(`[orbit-mcp] ${level}: ${line}\n`),
      (level, line) => {
        if (LEVELS.includes(level))
          server.sendLoggingMessage({ level, logger: 'orbit-mcp', data: line }).catch(() => {});
      },
    ],
    redactor,
  );
  const files = createFiles(deps.files, {
    trust: deps.trust,
    tenant: deps.tenant,
    // A remote client's roots are folders on its own machine: never asked for, never used.
    clientRoots: deps.trust === 'local' ? clientRoots(server) : undefined,
    warn: (message) => log.warning(message),
  });

  const jobs = deps.jobs.forTenant(deps.tenant);
  const budget = deps.budget ?? new SpendBudget(deps.config.maxSpendUsd);
  const contextFor = (
    call: { signal: AbortSignal; requestId: string | number },
    progress: ToolContext['progress'],
    inTask = false,
  ): ToolContext => ({
    target: deps.target,
    api: deps.client.api({ credentials: deps.credentials, signal: call.signal, log }),
    progress,
    signal: call.signal,
    log,
    credentials: deps.credentials,
    files,
    jobs,
    budget,
    confirm: confirmer(server, call),
    inTask,
  });

  /** Signs in first when the call needs an API key and none is configured (only a provider that can sign in does). */
  const ensureKey = async (
    operation: OperationSpec,
    call: { signal: AbortSignal; requestId: string | number },
    progress: ToolContext['progress'],
  ) => {
    if (operation.credential !== 'api_key' || !deps.credentials.signIn || deps.credentials.get('api_key'))
      return;
    await deps.credentials.signIn(signInPrompt(server, call, progress));
  };

  /** Parse, sign in if needed, run, render: the same for a plain call and a task. Never throws. */
  const execute = async (
    tool: AnyTool,
    args: unknown,
    call: { signal: AbortSignal; requestId: string | number },
    progress: ReturnType<typeof createProgress>,
    inTask: boolean,
  ): Promise<ToolResult> => {
    try {
      const parsed = parseArguments(tool, args);
      const operation = operationOf(tool, parsed);
      await ensureKey(operation, call, inTask ? { report() {} } : progress);
      if (operation.nature === 'spend') budget.ensure();
      const output = await tool.run(parsed, contextFor(call, progress, inTask));
      const checked = tool.output.safeParse(output);
      if (!checked.success) throw outputErrorFrom(checked.error, tool.name);
      budget.record(tool.spent?.(checked.data));
      return await renderResult(tool, checked.data, files, redactor);
    } catch (error) {
      log.debug(`tool ${tool.name} failed`, {
        error: error instanceof Error ? error.message : String(error),
      });
      return renderError(error, redactor);
    } finally {
      await progress.flush();
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listed.map((entry) => entry.listing),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (!enabled.has(request.params.name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}". Enabled toolsets: ${toolsets.join(', ')}${deps.config.readOnly ? ' (read-only)' : ''}.`,
      );
    }
    const tool = await deps.tools.load(request.params.name);
    if (request.params.task && !tool.task) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `${tool.name} does not run as a task; call it without \`task\`.`,
      );
    }
    if (request.params.task && tool.task && extra.taskStore) {
      // Task mode: answer with the task at once; the work (argument errors included) ends up in
      // the task's result, read with tasks/result.
      const task = await extra.taskStore.createTask({ ttl: request.params.task.ttl });
      const store = extra.taskStore;
      const signal = taskStore.signal(task.taskId);
      // Progress outlives the tools/call reply, so it goes out unbound from that request.
      const progress = createProgress(request.params._meta?.progressToken, (params) =>
        server.notification({ method: 'notifications/progress', params: redactor.value(params) }),
      );
      void (async () => {
        const result = await execute(tool, request.params.arguments, { ...extra, signal }, progress, true);
        if (signal.aborted) return;
        await store.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result);
      })().catch((error) =>
        log.debug(`task ${task.taskId} could not store its result`, { error: String(error) }),
      );
      return { task };
    }
    const progress = createProgress(request.params._meta?.progressToken, (params) =>
      extra.sendNotification({ method: 'notifications/progress', params: redactor.value(params) }),
    );
    return execute(tool, request.params.arguments, extra, progress, false);
  });

  const resources = deps.resources;
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const listed = [];
    for (const resource of resources) {
      if (!resource.list) continue;
      try {
        for (const item of await resource.list(contextFor(extra, { report() {} }))) {
          listed.push({ ...item, mimeType: resource.mimeType });
        }
      } catch (error) {
        log.debug(`listing ${resource.name} failed`, { error: String(error) });
      }
    }
    return { resources: redactor.value(listed) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resources
      .filter((resource) => resource.uriTemplate.includes('{'))
      .map(({ uriTemplate, name, title, description, mimeType }) => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType,
      })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    for (const resource of resources) {
      const params = matchTemplate(resource.uriTemplate, uri);
      if (!params) continue;
      try {
        const body = await resource.read(params, contextFor(extra, { report() {} }));
        const redacted = 'text' in body ? { ...body, text: redactor.text(body.text) } : body;
        return { contents: [{ uri, mimeType: resource.mimeType, ...redacted }] };
      } catch (error) {
        const rendered = renderError(error, redactor).content[0];
        throw new McpError(
          ErrorCode.InvalidParams,
          rendered?.type === 'text' ? rendered.text : String(error),
        );
      }
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}; list resource templates to see what exists.`,
    );
  });

  return server;
}
