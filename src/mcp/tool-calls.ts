import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Reservation, SpendBudget } from '../budget.js';
import type { ToolContext } from '../context.js';
import { InputError } from '../errors.js';
import { ceilingFor } from '../payments/prices.js';
import type { Redactor } from '../secrets.js';
import { mayHaveCharged } from '../upstream/client.js';
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

const reservedUsd = new WeakMap<Reservation, number>();
const priceOf = (reservation: Reservation) => reservedUsd.get(reservation) ?? 0;

/** Reserves what the call may cost (its price, or the tool's stated ceiling) before it is sent. */
async function reserveFor(
  budget: SpendBudget,
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<Reservation> {
  // Without a limit nothing can be refused: the tool's ceiling stands in and no price is looked up
  // (a video's price is a catalog read).
  const price =
    (budget.limitUsd !== undefined ? await tool.price?.(args as never, ctx) : undefined) ??
    ceilingFor(tool.name);
  const reservation = await budget.reserve(price);
  reservedUsd.set(reservation, price.usd);
  return reservation;
}

/**
 * The reservation as the call's record sees it (call-record.ts), keeping its price for settle.
 * Without a limit the budget holds nothing, so nothing is recorded as reserved.
 */
function metered(
  meter: CallMeter,
  budget: SpendBudget,
  reservation: Reservation | undefined,
): Reservation | undefined {
  if (!reservation) return undefined;
  const watched = meter.watch(reservation, budget.limitUsd === undefined ? 0 : priceOf(reservation));
  reservedUsd.set(watched, priceOf(reservation));
  return watched;
}

/**
 * Settles to the result's cost; a job still running keeps a reservation for its cost; a result
 * that cannot be read (the call did reach the platform) keeps what was reserved as spent.
 */
async function settle(
  reservation: Reservation,
  tool: AnyTool,
  result: unknown,
  reserved: number,
): Promise<void> {
  if (result === undefined) return reservation.settle(reserved);
  const spent = tool.spent?.(result as never);
  const later = tool.deferred?.(result as never);
  if (later && spent === undefined) return reservation.defer(later.jobId, later.usd ?? reserved);
  return reservation.settle(spent !== undefined && Number.isFinite(spent) && spent > 0 ? spent : 0);
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
    const context = deps.contextFor(ctx, progress, {
      confirm: confirmer(channel),
      onRequestId: meter.onRequestId,
    });
    const credentials = context.credentials;
    if (operation.credential === 'api_key' && credentials.signIn && !credentials.get('api_key')) {
      await credentials.signIn(signInPrompt(channel, progress));
    }
    if (operation.nature === 'spend') await deps.beforeSpend?.();
    const reservation = metered(
      meter,
      deps.budget,
      operation.nature === 'spend' ? await reserveFor(deps.budget, tool, parsed, context) : undefined,
    );
    let checked: ReturnType<typeof tool.output.safeParse>;
    try {
      checked = tool.output.safeParse(await tool.run(parsed, context));
    } catch (error) {
      // A failure after the platform may have charged keeps what was reserved as spent.
      if (reservation)
        await (mayHaveCharged(error) ? reservation.settle(priceOf(reservation)) : reservation.release());
      throw error;
    }
    if (reservation)
      await settle(reservation, tool, checked.success ? checked.data : undefined, priceOf(reservation));
    if (!checked.success) throw outputErrorFrom(checked.error, tool.name);
    meter.succeeded(tool.spent?.(checked.data));
    return await renderResult(tool, checked.data, context.files, deps.redactor);
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
