import { z } from 'zod';
import { readReply } from '../../src/replies/read.js';
import { type LeftOut, usableList } from '../../src/replies/usable-list.js';
import { readPricing } from '../../src/upstream/pricing.js';

/**
 * What every format's reply is reduced to: the answer, its reasoning, the tool calls (their
 * argument text assembled piece by piece, exactly), why it stopped, usage, cost, and for the
 * responses format the response id and status. The format readers (reply-*.ts) fill it.
 */
export interface ChatState {
  text: string;
  reasoning: string;
  finish_reason?: string;
  model?: string;
  usage?: Usage;
  cost?: { amount: number; currency: string };
  /** The pricing object's token counts: usage when the usage chunk is missing (spec 2 §6). */
  priced?: { input?: number; output?: number };
  /** Tool calls by their place in the reply (chat `index`, messages block index, responses output index). */
  calls: Map<string, PartialCall>;
  responseId?: string;
  /** The responses format's status (queued, in_progress, completed, incomplete...). */
  status?: string;
  /** Last `sequence_number` of a responses stream, to catch reordering. */
  sequence?: number;
  /**
   * What the reply held that the answer leaves out, each said once (a stream repeats them): list
   * elements that could not be used, blocks of a type not shown here, ids made up for tool calls.
   */
  notes: Set<string>;
}

export interface PartialCall {
  id?: string;
  name?: string;
  /** Argument JSON text as it arrived, deltas joined in order. */
  args: string;
  /** At least one delta arrived (so a later whole value must agree with them). */
  streamed: boolean;
  /** A call of a type not shown here (named in the notes): left out of the answer. */
  hidden?: boolean;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  /** Input tokens read from the prompt cache. */
  cached_tokens?: number;
  /** Input tokens written to the prompt cache. */
  cache_creation_tokens?: number;
}

export function emptyState(): ChatState {
  return { text: '', reasoning: '', calls: new Map(), notes: new Set() };
}

/**
 * The usable elements of one of the reply's lists (the list rule, src/replies/usable-list.ts): the
 * others are named in the state's notes, as `choice #2: message: …`.
 */
export function usableOf<S extends z.ZodType>(
  state: ChatState,
  noun: string,
  schema: S,
  raw: unknown,
  nameKeys: readonly string[] = ['id', 'type'],
): z.infer<S>[] {
  if (raw === undefined || raw === null) return [];
  const { items, left_out } = usableList(schema, raw, { nameKeys });
  for (const item of left_out) noteLeftOut(state, noun, item);
  return items;
}

const noteLeftOut = (state: ChatState, noun: string, item: LeftOut) =>
  state.notes.add(`${noun} ${item.name} not usable (${item.reason})`);

/** A block or item of a type this server does not show: kept out of the answer, and named. */
export const noteNotShown = (state: ChatState, noun: string, type: string) =>
  state.notes.add(`${noun} of type ${type} not shown`);

/** The call at `key`, created on first sight. */
export function callAt(state: ChatState, key: string): PartialCall {
  let call = state.calls.get(key);
  if (!call) {
    call = { args: '', streamed: false };
    state.calls.set(key, call);
  }
  return call;
}

/** Usage fields of every format; which mean what differs per format (see the readers). */
export const UsageFields = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
});
export type UsageFields = z.infer<typeof UsageFields>;

/** Merges what a usage object says into the state; fields it leaves out keep their value. */
export function addUsage(state: ChatState, raw: unknown, read: (u: UsageFields) => Usage): void {
  if (raw === undefined || raw === null) return;
  const parsed = readReply(UsageFields, raw);
  if (!parsed.success) return;
  const next = read(parsed.data);
  const merged: Usage = { ...state.usage };
  for (const [key, value] of Object.entries(next) as [keyof Usage, number | undefined][])
    if (value !== undefined) merged[key] = value;
  state.usage = merged;
}

const nonZero = (n: number | null | undefined) => (n ? n : undefined);

/** Chat and responses: input counts include cached tokens. */
export const inclusiveUsage = (u: UsageFields): Usage => ({
  input_tokens: u.prompt_tokens ?? u.input_tokens,
  output_tokens: u.completion_tokens ?? u.output_tokens,
  cached_tokens: nonZero(
    u.prompt_tokens_details?.cached_tokens ??
      u.input_tokens_details?.cached_tokens ??
      u.cache_read_input_tokens,
  ),
  cache_creation_tokens: nonZero(u.cache_creation_input_tokens),
});

/** Reads the pricing extension of a body or chunk: cost, and the token counts that back usage up. */
export function addPricing(state: ChatState, body: unknown): void {
  const pricing = readPricing(body);
  if (!pricing) return;
  const amount = pricing.cost ?? pricing.amount;
  if (amount !== undefined) state.cost = { amount, currency: pricing.currency ?? 'USD' };
  if (pricing.inputTokens !== undefined || pricing.outputTokens !== undefined)
    state.priced = { input: pricing.inputTokens, output: pricing.outputTokens };
}

// ---- the result ---------------------------------------------------------------------------

/** Reasoning is returned apart from the answer and capped: its end (the conclusion) is kept. */
export const MAX_REASONING_CHARS = 4000;

const ToolCallOut = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.unknown().optional(),
  raw: z.string().optional(),
});
type ToolCallOut = z.infer<typeof ToolCallOut>;

// Loose: a `not_usable` note (what the reply held that is not in this answer, named: elements left
// out, types not shown, ids made up) passes without being listed (tokens).
export const ChatOut = z.looseObject({
  text: z.string(),
  tool_calls: z.array(ToolCallOut).optional(),
  reasoning: z.string().optional(),
  finish_reason: z.string().optional(),
  model: z.string().optional(),
  usage: z
    .object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      cached_tokens: z.number(),
      cache_creation_tokens: z.number(),
    })
    .partial()
    .optional(),
  cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
  request_id: z.string().optional(),
  response_id: z.string().optional(),
  next: z.string().optional(),
  /** With verify: true, the enclave signature's verdict (tee_verify request_id shows every check). */
  verification: z
    .object({ verified: z.boolean(), verdict: z.string(), failed: z.array(z.string()) })
    .optional(),
});
export type ChatOut = z.infer<typeof ChatOut> & { not_usable?: string };

/** The state as chat's result. Tool calls must have an id and a name: the caller answers by id. */
export function resultOf(state: ChatState, requestId: string | undefined, model: string): ChatOut {
  const toolCalls = [...state.calls.entries()].flatMap(([key, call]) =>
    finishCall(state, key, call, requestId),
  );
  const usage = filledUsage(state);
  return {
    text: state.text,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(state.reasoning ? { reasoning: capped(state.reasoning) } : {}),
    ...(state.finish_reason ? { finish_reason: state.finish_reason } : {}),
    model: state.model ?? model,
    ...(usage ? { usage } : {}),
    ...(state.cost ? { cost: state.cost } : {}),
    ...(requestId ? { request_id: requestId } : {}),
    ...(state.responseId ? { response_id: state.responseId } : {}),
    ...(state.notes.size ? { not_usable: [...state.notes].join('; ') } : {}),
  };
}

/**
 * A tool call as the caller answers it. One without a name cannot be made: left out and named.
 * One without an id gets one made from the reply's request id and its place, and says so.
 */
function finishCall(
  state: ChatState,
  key: string,
  call: PartialCall,
  requestId: string | undefined,
): ToolCallOut[] {
  if (call.hidden) return [];
  if (!call.name) {
    state.notes.add(`tool call ${call.id ?? `#${Number(key) + 1 || key}`} not usable (it has no name)`);
    return [];
  }
  let id = call.id;
  if (!id) {
    id = `call_${requestId ?? 'reply'}_${key}`;
    state.notes.add(`tool call ${call.name} came without an id: given ${id}`);
  }
  const text = call.args.trim() === '' ? '{}' : call.args;
  try {
    return [{ id, name: call.name, arguments: JSON.parse(text) as unknown }];
  } catch {
    // The model wrote arguments that are not JSON: hand them over as they are.
    return [{ id, name: call.name, raw: call.args }];
  }
}

/** Usage as reported, with counts it lacks taken from the pricing object's inputTokens/outputTokens. */
function filledUsage(state: ChatState): Usage | undefined {
  const usage: Usage = { ...state.usage };
  if (usage.input_tokens === undefined && state.priced?.input !== undefined)
    usage.input_tokens = state.priced.input;
  if (usage.output_tokens === undefined && state.priced?.output !== undefined)
    usage.output_tokens = state.priced.output;
  const defined = Object.entries(usage).filter(([, v]) => v !== undefined);
  return defined.length ? (Object.fromEntries(defined) as Usage) : undefined;
}

function capped(reasoning: string): string {
  if (reasoning.length <= MAX_REASONING_CHARS) return reasoning;
  const cut = reasoning.length - MAX_REASONING_CHARS;
  return `[${cut} earlier characters of reasoning not shown] …${reasoning.slice(cut)}`;
}

/** The answer, then one line per tool call to make: `Tool call <id>: <name>(<arguments>)`. */
export function answerText(r: Pick<ChatOut, 'text' | 'tool_calls'>): string {
  const lines = r.text ? [r.text] : [];
  for (const call of r.tool_calls ?? [])
    lines.push(`Tool call ${call.id}: ${call.name}(${call.raw ?? JSON.stringify(call.arguments ?? {})})`);
  return lines.join('\n');
}

/** The compact text form: the answer and calls, then one line of facts. */
export function chatText(r: ChatOut): string {
  const lines = [answerText(r)].filter(Boolean);
  if (r.not_usable) lines.push(`(${r.not_usable}.)`);
  if (r.next) lines.push(`Still running. Next: call ${r.next}.`);
  if (r.verification) lines.push(`Enclave signature: ${r.verification.verdict}`);
  const u = r.usage;
  const facts = [
    r.model ?? '',
    r.finish_reason ?? 'done',
    u && `${u.input_tokens ?? '?'} in / ${u.output_tokens ?? '?'} out`,
    u?.cached_tokens && `${u.cached_tokens} cached`,
    u?.cache_creation_tokens && `${u.cache_creation_tokens} written to cache`,
    r.cost && `${r.cost.amount} ${r.cost.currency}`,
    r.response_id,
    r.request_id,
  ].filter(Boolean);
  return `${lines.join('\n')}\n[${facts.join(' · ')}]`;
}
