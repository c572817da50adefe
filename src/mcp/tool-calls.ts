import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { SpendBudget } from '../budget/ledger.js';
import { reservePaidCall } from '../budget/paid-call.js';
import type { ToolContext } from '../context.js';
import { InputError } from '../errors.js';
import type { Redactor } from '../secrets.js';
import { rendersViews, withView } from './apps.js';
import { parseArguments } from './arguments.js';
import { CallMeter, type CallRecord, unknownToolCall } from './call-record.js';
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
import { acceptedAnswer, acceptedWrite, recordingWrites, withCheck } from './writes.js';
import { asPaidResult, asPaymentRequired, type PaidCall, paidCallOf } from './x402-binding.js';

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
  /** Builds the tool's context for this request; `onRequestId` hears each platform reply's id. */
  contextFor(
    ctx: ServerContext,
    progress: ToolContext['progress'],
    extra: Pick<ToolContext, 'confirm'> & { onRequestId?: (requestId: string) => void },
  ): ToolContext;
  log: ToolContext['log'];
  /** Before a paid call reserves (the HTTP endpoint's paid-call rate limit): throws to refuse it. */
  beforeSpend?: () => Promise<void>;
  /** Each call once it has ended, whatever the outcome (the audit log, the call's span). */
  onCallDone?: (record: CallRecord, ctx: ServerContext) => void;
}

/** tools/list and tools/call: listing from the catalog, and one path for every call. */
export function registerToolCalls(deps: CallDeps): void {
  const enabled = new Set(deps.listed.map((entry) => entry.name));
  // By name, whatever the registry's order: a list that never reorders keeps clients' caches and
  // model prompt caches valid across versions and toolset choices.
  const listed = [...deps.listed].sort((a, b) =>
    a.listing.name < b.listing.name ? -1 : a.listing.name > b.listing.name ? 1 : 0,
  );
  const plain = listed.map((entry) => entry.listing);
  const withViews = listed.map((entry) => withView(entry.listing, entry.view));
  deps.server.setRequestHandler('tools/list', async (_request, ctx) => ({
    tools: rendersViews(deps.server, ctx) ? withViews : plain,
  }));
  deps.server.setRequestHandler('tools/call', async (request, ctx) => {
    const asked = request.params.name;
    if (!enabled.has(asked)) {
      deps.onCallDone?.(unknownToolCall(), ctx);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${asked}". ${deps.describeEnabled}`,
      );
    }
    // An x402 wallet's payment for a kept quote runs as x402_complete (x402-binding.ts).
    let paid: PaidCall | undefined;
    try {
      paid = paidCallOf(asked, request.params._meta ?? ctx.mcpReq._meta);
      if (paid && !enabled.has(paid.tool)) {
        throw new InputError(`Paying with x402 needs the ${paid.tool} tool, which is not enabled here.`, {
          fix: `Enable the payments toolset (not read-only). ${deps.describeEnabled}`,
        });
      }
    } catch (error) {
      const refused = new CallMeter(asked);
      refused.failed(error);
      deps.onCallDone?.(refused.record(), ctx);
      return renderError(error, deps.redactor);
    }
    const name = paid?.tool ?? asked;
    const meter = new CallMeter(name);
    const tool = await deps.tools.load(name);
    const args = paid?.arguments ?? request.params.arguments;
    // A hash of the arguments, needed only when a question was or is to be asked: most calls never pay it.
    let call: string | undefined;
    const identity = () => (call ??= callIdentity(name, args));
    const answers = answersFor(ctx, identity);
    try {
      const result = await execute(deps, tool, args, ctx, asker(answers), meter);
      return paid ? asPaidResult(result, paid) : asPaymentRequired(result);
    } catch (error) {
      if (!(error instanceof NeedsInput)) {
        meter.failed(error);
        throw error;
      }
      meter.asked();
      return askFor(deps.stateCodec, identity(), answers, error);
    } finally {
      deps.onCallDone?.(meter.record(), ctx);
    }
  });
}

/**
 * Parse, sign in if needed, the paid-call step (src/budget/paid-call.ts), run, validate the
 * result, render. Every failure is an isError result the model can act on, except a question for
 * the person (NeedsInput), which the handler turns into input_required.
 */
async function execute(
  deps: CallDeps,
  tool: AnyTool,
  args: unknown,
  ctx: ServerContext,
  ask: Asker,
  meter: CallMeter,
) {
  const progress = createProgress(ctx.mcpReq._meta?.progressToken, (params) =>
    ctx.mcpReq.notify({ method: 'notifications/progress', params: deps.redactor.value(params) }),
  );
  try {
    const parsed = parseArguments(tool, args);
    const operation = operationOf(tool, parsed);
    meter.operationOf(tool, parsed);
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
    const given = deps.contextFor(ctx, progress, {
      confirm: confirmer(channel),
      onRequestId: meter.onRequestId,
    });
    // A call that writes keeps a record of what it sent: an accepted write never answers as failed.
    const writing = operation.nature === 'read' ? undefined : recordingWrites(given.api);
    const context = writing ? { ...given, api: writing.api } : given;
    const credentials = context.credentials;
    if (operation.credential === 'api_key' && credentials.signIn && !credentials.get('api_key')) {
      await credentials.signIn(signInPrompt(channel, progress, tool.pastedSignIn?.(parsed as never)));
    }
    const paid =
      operation.nature === 'spend'
        ? await reservePaidCall(deps.budget, tool, parsed, context, {
            before: deps.beforeSpend,
            watch: (reservation, reservedUsd) => meter.watch(reservation, reservedUsd),
          })
        : undefined;
    const sent = paid?.args ?? parsed;
    let checked: ReturnType<typeof tool.output.safeParse>;
    let ran = false;
    try {
      const result = await tool.run(sent, context);
      ran = true;
      checked = tool.output.safeParse(result);
      if (!checked.success)
        throw outputErrorFrom(checked.error, tool.name, paid && { check: tool.check?.(sent as never) });
    } catch (error) {
      // A run that ended reached the platform (a paid GET records no write); so did an accepted write.
      const counted = await paid?.failed(error, ran || (writing?.writes.some(acceptedWrite) ?? false));
      if (!writing || error instanceof NeedsInput) throw error;
      const failure = { tool, args: sent, writes: writing.writes, error, countedUsd: counted };
      const answer = acceptedAnswer(failure, deps.redactor);
      if (answer) return answer;
      throw withCheck(failure);
    }
    const notes = await paid?.succeeded(checked.data);
    meter.succeeded(tool.cost?.spent(checked.data));
    return await renderResult(tool, checked.data, context.files, deps.redactor, notes);
  } catch (error) {
    if (error instanceof NeedsInput) throw error;
    meter.failed(error);
    deps.log.debug(`tool ${tool.name} failed`, {
      error: error instanceof Error ? error.message : String(error),
    });
    return renderError(error, deps.redactor);
  } finally {
    await progress.flush();
  }
}
