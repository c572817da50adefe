import { InputError } from '../../src/errors.js';
import { isEnclaveModel } from '../../src/tee/index.js';
import { EVAL_STORE_CONTENT_FLAG } from '../../src/word.js';
import { checkArguments } from './checks.js';
import { type Conversation, readConversation } from './conversation.js';
import { type ChatArgs, type Format, SUFFIXES } from './options.js';
import {
  chatMessages,
  completionsPrompt,
  messagesMessages,
  responsesInput,
  toolChoiceFor,
  toolsFor,
  type Written,
} from './wire.js';

/**
 * chat's arguments as one upstream request: the route, the body in that route's format, and the
 * headers of spec 2 §4.2. Every rule the spec states (thinking budget, retention range, tool choice
 * naming an offered tool, format-only fields) is checked here, before anything is sent.
 */
export interface ChatRequest {
  format: Format;
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  stream: boolean;
  /** A background response: seconds to wait for it (0: hand back its id at once). */
  waitS?: number;
  conversation: Conversation;
  /** Only text and the basic fields: the legacy route could carry it. */
  plain: boolean;
  /** Keep the exact bytes exchanged (for checking an enclave's signature over them, now or later). */
  capture: boolean;
}

const PATHS: Record<Format, string> = {
  chat: '/api/v1/chat/completions',
  messages: '/api/v1/messages',
  responses: '/api/v1/responses',
  completions: '/api/v1/completions',
};

/** Thinking budgets for the messages format, per effort; each must stay below max_tokens. */
export const THINKING_BUDGET = { low: 1024, medium: 4096, high: 16384 } as const;
/** The messages format requires max_tokens; this many beyond the thinking budget when not given. */
const DEFAULT_MAX_TOKENS = 1024;
const BETA_CACHING = 'prompt-caching-2024-07-31';
const BETA_ONE_HOUR = 'extended-cache-ttl-2025-04-11';

export function buildRequest(args: ChatArgs): ChatRequest {
  const conversation = readConversation(args);
  if (conversation.turns.length === 0) {
    throw new InputError('Nothing to send: give `prompt` or at least one user or assistant message.', {
      fix: 'Pass prompt: "your question", or messages: [{ role: "user", content: "..." }].',
    });
  }
  checkArguments(args, conversation);
  const format = args.format;
  const written = write(format, conversation);
  const routes = new Set(args.route ?? []);
  const body: Record<string, unknown> = {
    model: modelId(args, routes),
    stream: args.stream,
    ...written.body,
  };
  if (args.temperature !== undefined) body.temperature = args.temperature;
  Object.assign(body, samplingFields(args));
  if (format !== 'completions') Object.assign(body, toolFields(format, args));
  Object.assign(body, reasoningFields(args), cachingFields(args, conversation, written, routes));
  cacheSystem(body, args);
  if (format === 'messages') body.max_tokens = messagesMaxTokens(args);
  else if (args.max_tokens !== undefined)
    body[format === 'responses' ? 'max_output_tokens' : 'max_tokens'] = args.max_tokens;
  let waitS: number | undefined;
  if (format === 'responses') {
    Object.assign(body, statefulFields(args));
    if (args.background !== undefined) {
      waitS = args.background;
      // A background response is fetched when done; streaming it would make it run in the foreground.
      body.stream = false;
    }
  }
  if (body.stream === true && format === 'chat') body.stream_options = { include_usage: true };
  // Spec 2 §2.7: traces keep content only when the caller opts in with this flag.
  if (args.eval_store_content) body[EVAL_STORE_CONTENT_FLAG] = true;
  return {
    format,
    path: PATHS[format],
    body,
    headers: headersFor(args, conversation, routes),
    stream: body.stream === true,
    ...(waitS !== undefined ? { waitS } : {}),
    conversation,
    // An enclave's reply is kept byte for byte, so tee_verify can check it later (verify or not).
    capture: args.verify === true || isEnclaveModel(args.model),
    plain:
      format === 'chat' &&
      !args.tools?.length &&
      !args.reasoning_effort &&
      !args.hide_reasoning &&
      !args.caching &&
      [args.top_p, args.stop, args.service_tier, args.cache_system].every((v) => v === undefined) &&
      conversation.turns.every((t) => t.role !== 'tool' && t.calls.length === 0 && !t.cache),
  };
}

function write(format: Format, conversation: Conversation): Written {
  if (format === 'messages') return messagesMessages(conversation);
  if (format === 'responses') return responsesInput(conversation);
  if (format === 'completions') return completionsPrompt(conversation);
  return chatMessages(conversation);
}

function toolFields(format: 'chat' | 'messages' | 'responses', args: ChatArgs): Record<string, unknown> {
  if (!args.tools?.length) return {};
  return {
    tools: toolsFor(format, args.tools),
    ...(args.tool_choice ? { tool_choice: toolChoiceFor(format, args.tool_choice) } : {}),
  };
}

/** The model id with the suffixes asked for (spec 2 §4.2), each once. */
function modelId(args: ChatArgs, routes: Set<string>): string {
  const [id, ...present] = args.model.split(':');
  const suffixes = [...present];
  const add = (suffix: string) => {
    if (!suffixes.includes(suffix)) suffixes.push(suffix);
  };
  for (const suffix of SUFFIXES) if (routes.has(suffix)) add(suffix);
  if (args.web_search) add('online');
  // The messages format has no reasoning object: the suffix hides the reasoning there.
  if (args.hide_reasoning && args.format === 'messages') add('reasoning-exclude');
  return [id, ...suffixes].join(':');
}

/** top_p, stop, top_k, service_tier, no parallel tools and the system prompt's cache marker. */
function samplingFields(args: ChatArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (args.top_p !== undefined) out.top_p = args.top_p;
  if (args.stop) out[args.format === 'messages' ? 'stop_sequences' : 'stop'] = args.stop;
  if (args.top_k !== undefined) out.top_k = args.top_k;
  if (args.service_tier !== undefined) out.service_tier = args.service_tier;
  if (args.parallel_tools === false) out.disable_parallel_tool_use = true;
  return out;
}

/**
 * `cache_system`: the system prompt as a text block with `cache_control` (spec 2 §4.1 and §4.2's
 * inline markers), in the messages format's `system` or the chat format's system message.
 */
function cacheSystem(body: Record<string, unknown>, args: ChatArgs): void {
  if (!args.cache_system) return;
  const marker = { type: 'ephemeral', ...(args.cache_system === '1h' ? { ttl: '1h' } : {}) };
  const block = (text: unknown) =>
    typeof text === 'string' ? [{ type: 'text', text, cache_control: marker }] : undefined;
  const messages = body.messages as Array<{ role: string; content: unknown }> | undefined;
  const system =
    args.format === 'messages'
      ? block(body.system)
      : block(messages?.[0]?.role === 'system' ? messages[0].content : undefined);
  if (!system) {
    throw new InputError('cache_system needs a system prompt.', {
      param: 'cache_system',
      fix: 'Pass system, or drop cache_system.',
    });
  }
  if (args.format === 'messages') body.system = system;
  else messages![0] = { role: 'system', content: system };
}

/** reasoning_effort per format: `reasoning_effort` (chat), `reasoning` (responses), `thinking` (messages). */
function reasoningFields(args: ChatArgs): Record<string, unknown> {
  const effort = args.reasoning_effort;
  const exclude = args.hide_reasoning ? { exclude: true } : {};
  if (args.format === 'messages') {
    if (args.thinking_budget !== undefined)
      return { thinking: { type: 'enabled', budget_tokens: args.thinking_budget } };
    if (!effort || effort === 'none') return {};
    return { thinking: { type: 'enabled', budget_tokens: THINKING_BUDGET[effort] } };
  }
  if (args.format === 'responses') {
    return effort || args.hide_reasoning ? { reasoning: { ...(effort ? { effort } : {}), ...exclude } } : {};
  }
  if (args.format === 'chat') {
    return {
      ...(effort ? { reasoning_effort: effort } : {}),
      ...(args.hide_reasoning ? { reasoning: exclude } : {}),
    };
  }
  return {};
}

/** max_tokens of the messages format: required there, and above the thinking budget (spec 2 §4.1, §8). */
function messagesMaxTokens(args: ChatArgs): number {
  const effort = args.reasoning_effort;
  const budget = args.thinking_budget ?? (effort && effort !== 'none' ? THINKING_BUDGET[effort] : undefined);
  if (budget === undefined) return args.max_tokens ?? DEFAULT_MAX_TOKENS;
  if (args.max_tokens === undefined) return budget + DEFAULT_MAX_TOKENS;
  if (args.max_tokens <= budget) {
    const why =
      args.thinking_budget !== undefined
        ? 'thinking_budget'
        : `reasoning_effort "${effort}" thinks with a budget of`;
    throw new InputError(`${why} ${budget} tokens, which must be below max_tokens (${args.max_tokens}).`, {
      param: 'max_tokens',
      fix: `Raise max_tokens above ${budget} (or leave it out), or lower the thinking budget.`,
    });
  }
  return args.max_tokens;
}

/**
 * `caching: true` routes to a caching provider with soft affinity; `sticky` makes failover strict.
 * Cache markers on messages go inline (their `ttl` included), except in the responses format,
 * whose body takes the last marked message as `prompt_caching` (`cut_after_message_index`, `ttl`).
 */
function cachingFields(
  args: ChatArgs,
  conversation: Conversation,
  written: Written,
  routes: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (args.caching) out.caching = true;
  const last = conversation.turns.filter((t) => t.cache).at(-1);
  if (last?.cache && args.format === 'completions') {
    throw new InputError('The completions format takes no cache breakpoints.', {
      param: `messages[${last.at}].cache_control`,
      fix: 'Use caching: true, or format "chat" for cache_control on messages.',
    });
  }
  if (last?.cache && args.format === 'responses') {
    out.prompt_caching = {
      enabled: true,
      cut_after_message_index: written.placed[last.at],
      ...(last.cache.ttl ? { ttl: last.cache.ttl } : {}),
    };
  }
  if (routes.has('sticky')) out.stickyprovider = true;
  return out;
}

function statefulFields(args: ChatArgs): Record<string, unknown> {
  return {
    ...(args.previous_response_id ? { previous_response_id: args.previous_response_id } : {}),
    ...(args.store !== undefined ? { store: args.store } : {}),
    ...(args.retention_days !== undefined ? { retention_days: args.retention_days } : {}),
    ...(args.background !== undefined ? { background: true } : {}),
  };
}

/** The headers of spec 2 §4.1 and §4.2 (names as the spec writes them; HTTP ignores case). */
function headersFor(args: ChatArgs, conversation: Conversation, routes: Set<string>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (args.provider) headers['X-Provider'] = args.provider;
  if (routes.has('paygo')) headers['X-Billing-Mode'] = 'paygo';
  if (routes.has('moderation')) headers.moderation = 'true';
  if (args.format === 'messages') {
    // The messages format's own switch for explicit caching, and for one-hour breakpoints (spec 2 §4.1).
    const markers = [
      ...conversation.turns.flatMap((t) => (t.cache ? [t.cache] : [])),
      ...(args.cache_system ? [{ ttl: args.cache_system }] : []),
    ];
    const beta = [
      ...(args.caching || markers.length > 0 ? [BETA_CACHING] : []),
      ...(markers.some((m) => m.ttl === '1h') ? [BETA_ONE_HOUR] : []),
    ];
    if (beta.length > 0) headers['anthropic-beta'] = beta.join(',');
  }
  return headers;
}
