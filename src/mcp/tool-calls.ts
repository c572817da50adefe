import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Price, Reservation, SpendBudget } from '../budget/ledger.js';
import { ceilingFor } from '../budget/prices.js';
import type { ToolContext } from '../context.js';
import { InputError } from '../errors.js';
import type { Redactor } from '../secrets.js';
import { mayHaveCharged } from '../upstream/failure.js';
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
 * Reserves what the call may cost (its price, or the tool's stated ceiling) before it is sent, or
 * the smaller call the budget can pay for; the price reserved comes back.
 */
async function reserveFor(
  budget: SpendBudget,
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<{ reservation: Reservation; price: Price }> {
  // Without a limit nothing can be refused: the tool's ceiling stands in and no price is looked up
  // (a video's price is a catalog read).
  const price =
    (budget.limitUsd !== undefined ? await tool.price?.(args as never, ctx) : undefined) ??
    ceilingFor(tool.name);
  return budget.reserveShaped(price);
}

/**
 * The reservation as the call's record sees it (call-record.ts), with the price it reserved.
 * Without a limit the budget holds nothing, so nothing is recorded as reserved.
 */
function metered(
  meter: CallMeter,
  budget: SpendBudget,
  paid: { reservation: Reservation; price: Price } | undefined,
): { reservation: Reservation; price: Price } | undefined {
  if (!paid) return undefined;
  const reserved = budget.limitUsd === undefined ? 0 : paid.price.usd;
  return { reservation: meter.watch(paid.reservation, reserved), price: paid.price };
}

/**
 * Settles to the result's cost; a job still running keeps a reservation for its cost; a result
 * that cannot be read, or that states no cost (the call did reach the platform), keeps what was
 * reserved as spent. Returns what the text must say when the result itself states no cost.
 */
async function settle(
  reservation: Reservation,
  tool: AnyTool,
  result: unknown,
  price: Price,
  limited: boolean,
): Promise<string | undefined> {
  const spent = tool.spent?.(result as never);
  const later = tool.deferred?.(result as never);
  if (later && spent === undefined) {
    const held = later.usd ?? price.usd;
    await reservation.defer(later.jobId, held);
    return `Cost: known when it finishes${limited ? `; ${usd(held)} USD is held against the spend budget until then` : ''}.`;
  }
  if (spent !== undefined && Number.isFinite(spent))
    return void (await reservation.settle(Math.max(0, spent)));
  // Counted as what was reserved: the platform may well have charged it.
  await reservation.settle(limited ? price.usd : 0);
  return `Cost: not stated by the platform${limited ? `; ${usd(price.usd)} USD counted against the spend budget (what this call reserved)` : ''}.`;
}

const usd = (amount: number) => Math.round(amount * 1e6) / 1e6;

/** The lines the budget adds to a paid call's text, and what it adds to its structured result. */
function budgetNotes(price: Price | undefined, costLine: string | undefined) {
  const lines = [price?.shaped?.said, costLine].filter((line) => line !== undefined);
  const fields = price?.shaped ? { shaped_by_budget: price.shaped.args } : undefined;
  return { lines, fields };
}

/**
 * Parse, sign in if needed, check the budget, run, validate the result, render. Every failure is
 * an isError result the model can act on, except a question for the person (NeedsInput), which
 * the handler turns into input_required.
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
    if (operation.nature === 'spend') await deps.beforeSpend?.();
    const paid = metered(
      meter,
      deps.budget,
      operation.nature === 'spend' ? await reserveFor(deps.budget, tool, parsed, context) : undefined,
    );
    // The budget may have chosen arguments so the call fits (a chat's max_tokens).
    const sent = paid?.price.shaped ? { ...parsed, ...paid.price.shaped.args } : parsed;
    let checked: ReturnType<typeof tool.output.safeParse>;
    let ran = false;
    try {
      const result = await tool.run(sent, context);
      ran = true;
      checked = tool.output.safeParse(result);
      if (!checked.success) throw outputErrorFrom(checked.error, tool.name);
    } catch (error) {
      // A failure after the platform may have charged (or accepted the call) keeps what was reserved
      // as spent; so does a run that ended with a result we cannot check (a paid GET records no write).
      const charged = ran || mayHaveCharged(error) || (writing?.writes.some(acceptedWrite) ?? false);
      if (paid) await (charged ? paid.reservation.settle(paid.price.usd) : paid.reservation.release());
      if (!writing || error instanceof NeedsInput) throw error;
      const failure = {
        tool,
        args: sent as Record<string, unknown>,
        writes: writing.writes,
        error,
        ...(paid && charged ? { countedUsd: paid.price.usd } : {}),
      };
      const answer = acceptedAnswer(failure, deps.redactor);
      if (answer) return answer;
      throw withCheck(failure);
    }
    const limited = deps.budget.limitUsd !== undefined;
    const costLine = paid && (await settle(paid.reservation, tool, checked.data, paid.price, limited));
    meter.succeeded(tool.spent?.(checked.data));
    const notes = budgetNotes(paid?.price, costLine || undefined);
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
