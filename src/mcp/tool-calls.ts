import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { SpendBudget } from '../budget.js';
import type { ToolContext } from '../context.js';
import type { Redactor } from '../secrets.js';
import { parseArguments } from './arguments.js';
import type { CatalogEntry, ToolCatalog } from './catalog.js';
import { confirmer } from './confirm.js';
import { type AnyTool, operationOf } from './define-tool.js';
import {
  type Asker,
  answersFor,
  asker,
  askFor,
  callIdentity,
  type createStateCodec,
  elicitationOf,
  isModern,
  NeedsInput,
} from './input.js';
import { createProgress } from './progress.js';
import { outputErrorFrom, renderError, renderResult } from './render.js';
import { signInPrompt } from './sign-in.js';

/** What a call needs besides the tool: the per-connection pieces the server built. */
export interface CallDeps {
  server: Server;
  tools: ToolCatalog;
  listed: readonly CatalogEntry[];
  /** Said in the error for an unknown tool. */
  describeEnabled: string;
  redactor: Redactor;
  budget: SpendBudget;
  stateCodec: ReturnType<typeof createStateCodec>;
  /** Builds the tool's context for this request. */
  contextFor(
    ctx: ServerContext,
    progress: ToolContext['progress'],
    extra: Pick<ToolContext, 'confirm'>,
  ): ToolContext;
  log: ToolContext['log'];
}

/** tools/list and tools/call: listing from the catalog, and one path for every call. */
export function registerToolCalls(deps: CallDeps): void {
  const enabled = new Set(deps.listed.map((entry) => entry.name));
  deps.server.setRequestHandler('tools/list', async () => ({
    tools: deps.listed.map((entry) => entry.listing),
  }));
  deps.server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    if (!enabled.has(name)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". ${deps.describeEnabled}`,
      );
    }
    const tool = await deps.tools.load(name);
    const args = request.params.arguments;
    // A hash of the arguments, needed only when a question was or is to be asked: most calls never pay it.
    let call: string | undefined;
    const identity = () => (call ??= callIdentity(name, args));
    const answers = answersFor(ctx, identity);
    try {
      return await execute(deps, tool, args, ctx, asker(answers));
    } catch (error) {
      if (error instanceof NeedsInput) return askFor(deps.stateCodec, identity(), answers, error);
      throw error;
    }
  });
}

/**
 * Parse, sign in if needed, check the budget, run, validate the result, render. Every failure is
 * an isError result the model can act on, except a question for the person (NeedsInput), which
 * the handler turns into input_required.
 */
async function execute(deps: CallDeps, tool: AnyTool, args: unknown, ctx: ServerContext, ask: Asker) {
  const progress = createProgress(ctx.mcpReq._meta?.progressToken, (params) =>
    ctx.mcpReq.notify({ method: 'notifications/progress', params: deps.redactor.value(params) }),
  );
  try {
    const parsed = parseArguments(tool, args);
    const operation = operationOf(tool, parsed);
    // Read only when the tool asks the person something: most calls never do.
    const channel = {
      server: deps.server,
      ctx,
      get modern() {
        return isModern(ctx);
      },
      get elicitation() {
        return elicitationOf(deps.server, ctx);
      },
      ask,
    };
    const context = deps.contextFor(ctx, progress, { confirm: confirmer(channel) });
    const credentials = context.credentials;
    if (operation.credential === 'api_key' && credentials.signIn && !credentials.get('api_key')) {
      await credentials.signIn(signInPrompt(channel, progress));
    }
    if (operation.nature === 'spend') deps.budget.ensure();
    const output = await tool.run(parsed, context);
    const checked = tool.output.safeParse(output);
    if (!checked.success) throw outputErrorFrom(checked.error, tool.name);
    deps.budget.record(tool.spent?.(checked.data));
    return await renderResult(tool, checked.data, context.files, deps.redactor);
  } catch (error) {
    if (error instanceof NeedsInput) throw error;
    deps.log.debug(`tool ${tool.name} failed`, {
      error: error instanceof Error ? error.message : String(error),
    });
    return renderError(error, deps.redactor);
  } finally {
    await progress.flush();
  }
}
