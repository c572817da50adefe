import { z } from 'zod';
import { InputError, REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import type { Api } from '../../src/http/client.js';
import type { SseEvent } from '../../src/http/sse.js';
import { defineTool, type Progress } from '../../src/mcp/define-tool.js';
import {
  applyChat,
  applyMessage,
  applyMessageEvent,
  applyResponse,
  applyResponseEvent,
  ChatBody,
  type ChatState,
  emptyState,
  isMessagesTerminal,
  isResponsesTerminal,
  MessageBody,
  ResponseBody,
} from './formats.js';
import { Conversation, conversation } from './shared.js';

const Input = z.object({
  ...Conversation,
  format: z.enum(['chat', 'messages', 'responses']).default('chat'),
  max_tokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  web_search: z.boolean().default(false).describe('+$0.006: live web results'),
  caching: z.boolean().optional(),
  reasoning_effort: z.enum(['none', 'low', 'medium', 'high']).optional(),
  stream: z.boolean().default(true),
});
type Input = z.infer<typeof Input>;

const Output = z.object({
  text: z.string(),
  reasoning: z.string().optional(),
  finish_reason: z.string().optional(),
  model: z.string().optional(),
  usage: z
    .object({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cached_tokens: z.number().optional(),
    })
    .optional(),
  cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
  request_id: z.string().optional(),
});

const PATHS = {
  chat: '/api/v1/chat/completions',
  messages: '/api/v1/messages',
  responses: '/api/v1/responses',
};

export default defineTool({
  name: 'chat',
  title: 'Chat with a model',
  description:
    'Ask any model (ids from models_list); streams the growing answer as progress. Returns text, reasoning, finish reason, usage, cost, request id.',
  toolset: 'text',
  credential: 'api_key',
  input: Input,
  output: Output,
  nature: 'spend',
  async run(args, { api, progress }) {
    const { system, messages } = conversation(args);
    if (messages.length === 0) {
      throw new InputError('Nothing to send: give `prompt` or at least one user or assistant message.', {
        fix: 'Pass prompt: "your question", or messages: [{ role: "user", content: "..." }].',
      });
    }
    const body = requestBody(args, system, messages);
    const state: ChatState = emptyState();
    const requestId = args.stream
      ? await streamInto(state, api, args.format, body, progress)
      : await callInto(state, api, args.format, body);
    return {
      text: state.text,
      ...(state.reasoning ? { reasoning: state.reasoning } : {}),
      finish_reason: state.finish_reason,
      model: state.model ?? args.model,
      usage: state.usage,
      cost: state.cost,
      request_id: requestId,
    };
  },
  spent: (r) => (r.cost?.currency.toUpperCase() === 'USD' ? r.cost.amount : undefined),
  text: (r) =>
    [
      r.text,
      `\n[${r.model ?? ''} · ${r.finish_reason ?? 'done'}${r.usage ? ` · ${r.usage.input_tokens ?? '?'} in / ${r.usage.output_tokens ?? '?'} out` : ''}${r.cost ? ` · ${r.cost.amount} ${r.cost.currency}` : ''}${r.request_id ? ` · ${r.request_id}` : ''}]`,
    ].join(''),
});

function requestBody(
  args: Input,
  system: string | undefined,
  messages: z.infer<typeof Conversation.messages>,
) {
  const model = args.web_search && !args.model.includes(':online') ? `${args.model}:online` : args.model;
  const common = { model, stream: args.stream, temperature: args.temperature };
  if (args.format === 'messages') {
    return { ...common, system, messages, max_tokens: args.max_tokens ?? 1024 };
  }
  const all = system ? [{ role: 'system', content: system }, ...(messages ?? [])] : messages;
  const reasoning = args.reasoning_effort ? { reasoning_effort: args.reasoning_effort } : {};
  if (args.format === 'responses') {
    return { ...common, input: all, max_output_tokens: args.max_tokens, ...reasoning };
  }
  return {
    ...common,
    messages: all,
    max_tokens: args.max_tokens,
    caching: args.caching,
    ...reasoning,
    ...(args.stream ? { stream_options: { include_usage: true } } : {}),
  };
}

async function callInto(state: ChatState, api: Api, format: Input['format'], body: object) {
  const path = PATHS[format];
  if (format === 'messages') {
    const res = await api.request({ method: 'POST', path, body, schema: MessageBody });
    applyMessage(state, res.data);
    return res.requestId;
  }
  if (format === 'responses') {
    const res = await api.request({ method: 'POST', path, body, schema: ResponseBody });
    applyResponse(state, res.data);
    return res.requestId;
  }
  const res = await api.request({ method: 'POST', path, body, schema: ChatBody });
  applyChat(state, res.data);
  return res.requestId;
}

async function streamInto(
  state: ChatState,
  api: Api,
  format: Input['format'],
  body: object,
  progress: Progress,
) {
  const isTerminal =
    format === 'messages' ? isMessagesTerminal : format === 'responses' ? isResponsesTerminal : undefined;
  const res = await api.stream({ method: 'POST', path: PATHS[format], body, isTerminal });
  const apply = (event: SseEvent) => {
    if (format === 'messages') applyMessageEvent(state, event);
    else if (format === 'responses') applyResponseEvent(state, event);
    else applyChat(state, JSON.parse(event.data));
  };
  let shown = 0;
  for await (const batch of res.batches) {
    for (const event of batch.events) {
      try {
        apply(event);
      } catch (error) {
        throw new UpstreamInvalidError(
          `The platform sent a stream event that could not be read: ${(error as Error).message}`,
          {
            requestId: res.requestId,
            fix: `${REPORT_UPSTREAM} Calling with stream: false may work meanwhile.`,
          },
        );
      }
    }
    // One report per network read: what arrived together is shown together. The read that ends
    // the stream is not reported: the result carries the same text at the same moment.
    const seen = state.text.length + state.reasoning.length;
    if (!batch.last && seen > shown) {
      shown = seen;
      progress.report(growing(state));
    }
  }
  // The result carries the whole answer; a partial one still waiting out the throttle is stale.
  progress.discard?.();
  return res.requestId;
}

/** The answer so far, tail-capped so a notification stays small. */
function growing(state: ChatState): string {
  const text = state.text || `(thinking) ${state.reasoning}`;
  return text.length > 1000 ? `…${text.slice(-1000)}` : text;
}
