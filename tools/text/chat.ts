import { NotFoundError, routeMissing, UpstreamInvalidError } from '../../src/errors.js';
import { defineTool, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { isEnclaveModel } from '../../src/tee/index.js';
import { keepExchange, verifyReply } from '../verify/verify-reply.js';
import { LEGACY_PATH, legacyInto } from './legacy.js';
import { type ChatArgs, Input } from './options.js';
import { chatPrice } from './price.js';
import { ChatOut, chatText, emptyState, resultOf } from './reply.js';
import { buildRequest, type ChatRequest } from './request.js';
import { callInto, type Exchange, streamInto } from './send.js';
import { awaitResponse } from './stored.js';

export default defineTool({
  name: 'chat',
  title: 'Chat with a model',
  description:
    'Ask any LLM (GPT, Claude, Gemini, Llama, Mistral; ids: models_list) to answer, write, code, summarize, translate; continue a conversation; tools, reasoning. Size first: tokens_count.',
  toolset: 'text',
  long: 'progress',
  view: 'attestation',
  credential: 'api_key',
  input: Input,
  output: ChatOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    const request = buildRequest(args);
    const { out, sent } = await answer(request, args, ctx);
    if (!args.verify) {
      // A background response's submit is not the answer the enclave signs.
      if (request.waitS === undefined) keep(args.model, sent, ctx);
      return out;
    }
    // The one place that sees the request as sent and the reply as read, byte for byte.
    return { ...out, verification: await verification(args.model, sent, ctx) };
  },
  cost: {
    // The model's catalog pricing for this request's size (a malformed request is refused by run).
    price: (args, ctx) => {
      try {
        return chatPrice(ctx, args, buildRequest(args));
      } catch {
        return undefined;
      }
    },
    spent: (r) => (r.cost?.currency.toUpperCase() === 'USD' ? r.cost.amount : undefined),
    // A background response still running: what was reserved stays, until job_status learns its cost.
    deferred: (r) => (r.next && r.response_id ? { jobId: r.response_id } : undefined),
  },
  text: chatText,
});

/** Sends the request the way it asks (streamed, whole, or in the background) and reads the answer. */
async function answer(
  request: ChatRequest,
  args: ChatArgs,
  ctx: ToolContext,
): Promise<{ out: ChatOut; sent: Exchange }> {
  const state = emptyState();
  let sent: Exchange;
  try {
    sent = request.stream
      ? await streamInto(state, ctx.api, request, ctx.progress)
      : await callInto(state, ctx.api, request);
  } catch (error) {
    if (request.format !== 'chat' || !routeMissing(error)) throw error;
    sent = await legacyFallback(state, request, ctx, error);
  }
  if (request.waitS !== undefined) {
    if (!state.responseId) {
      throw new UpstreamInvalidError('The platform accepted the background response but sent no id.', {
        requestId: sent.requestId,
        fix: 'Look for it before sending again: a second call is charged again.',
      });
    }
    const out = await awaitResponse(ctx, state.responseId, request.waitS, args.model);
    // The submit is what was charged: its request id is the one to quote.
    return { out: { ...out, ...(sent.requestId ? { request_id: sent.requestId } : {}) }, sent };
  }
  return { out: resultOf(state, sent.requestId, args.model), sent };
}

/** An enclave reply's exact bytes, kept so tee_verify can check its signature later. */
function keep(model: string, sent: Exchange, ctx: ToolContext): void {
  const captured = sent.captured;
  if (!captured?.complete || !isEnclaveModel(model)) return;
  keepExchange(ctx, {
    model,
    requestId: sent.requestId,
    requestBody: captured.request,
    responseBody: captured.response,
  });
}

/** The enclave's signature over the exact bytes exchanged; the answer stands either way. */
async function verification(
  model: string,
  sent: Exchange,
  ctx: ToolContext,
): Promise<ChatOut['verification']> {
  const captured = sent.captured;
  if (!captured?.complete) {
    const why = captured
      ? 'the reply was cut before its end, so its bytes cannot be checked.'
      : 'the exact bytes were not kept (the legacy text route answered).';
    return { verified: false, verdict: `unverified: ${why}`, failed: ['bytes_kept'] };
  }
  ctx.progress.report('verifying the enclave signature');
  const verdict = await verifyReply(ctx, {
    model,
    requestId: sent.requestId,
    requestBody: captured.request,
    responseBody: captured.response,
  });
  return { verified: verdict.verified, verdict: verdict.verdict, failed: verdict.failed };
}

/** The chat-completions route is absent here (404): the legacy text route, when the request fits it. */
async function legacyFallback(
  state: ReturnType<typeof emptyState>,
  request: ChatRequest,
  ctx: ToolContext,
  error: NotFoundError,
): Promise<Exchange> {
  if (!request.plain) {
    throw new NotFoundError(error.message, {
      status: error.status,
      requestId: error.requestId,
      upstreamCode: error.upstreamCode,
      fix: `The chat-completions route is absent and the legacy ${LEGACY_PATH} route takes text only: drop tools, reasoning and caching, or use format "messages".`,
    });
  }
  ctx.progress.report(`the chat-completions route answered 404; using the legacy ${LEGACY_PATH} route`);
  return legacyInto(state, ctx.api, request);
}
