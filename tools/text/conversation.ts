import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { Message } from './shared.js';

/**
 * The caller's conversation, read once into turns every wire format is written from: text turns,
 * an assistant's tool calls (as `chat` returned them, or in the chat-completions shape), tool
 * results answering them, and cache breakpoints. Problems are named by argument before sending.
 */

/** A tool call handed back: `{id, name, arguments}` from a chat result, or the chat-completions form. */
const CallIn = z.union([
  z
    .object({ id: z.string().min(1), name: z.string().min(1), arguments: z.unknown(), raw: z.string() })
    .partial({
      arguments: true,
      raw: true,
    }),
  z
    .object({
      id: z.string().min(1),
      function: z.object({ name: z.string().min(1), arguments: z.string().optional() }),
    })
    .transform((c) => ({ id: c.id, name: c.function.name, raw: c.function.arguments ?? '{}' })),
]);

const Marker = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
export type Marker = z.infer<typeof Marker>;

const Extras = z.object({
  tool_calls: z.array(CallIn).optional(),
  tool_call_id: z.string().min(1).optional(),
  cache_control: Marker.optional(),
});

export interface Call {
  id: string;
  name: string;
  /** The arguments as JSON text, exactly as the model produced them (or as given). */
  json: string;
}

export type Content = string | unknown[];

export interface Turn {
  role: 'user' | 'assistant' | 'tool';
  content?: Content;
  calls: Call[];
  /** For a tool turn: the call it answers. */
  callId?: string;
  cache?: Marker;
  /** Index in the caller's `messages` (the `prompt` comes last). */
  at: number;
}

export interface Conversation {
  system?: string;
  turns: Turn[];
  /** How many messages the caller gave (with the prompt): the range of a cache cut index. */
  count: number;
}

const where = (i: number, key?: string) => `messages[${i}]${key ? `.${key}` : ''}`;

export function readConversation(args: {
  prompt?: string;
  messages?: Message[];
  system?: string;
}): Conversation {
  const given: Message[] = [...(args.messages ?? [])];
  if (args.prompt !== undefined) given.push({ role: 'user', content: args.prompt });
  const system: string[] = args.system ? [args.system] : [];
  const turns: Turn[] = [];
  given.forEach((message, at) => {
    // A plain turn (the prompt, most history) has none of the extras: nothing to check.
    const parsed = hasExtras(message) ? Extras.safeParse(message) : PLAIN_TURN;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.path.map(String).join('.');
      throw new InputError(`${where(at, key)}: ${issue.message}.`, {
        param: where(at, key),
        fix: 'tool_calls: [{id, name, arguments}] as chat returned them; tool_call_id: a string; cache_control: {type: "ephemeral", ttl?: "5m" | "1h"}.',
      });
    }
    const { tool_calls: calls = [], tool_call_id: callId, cache_control: cache } = parsed.data;
    const content = message.content === null ? undefined : (message.content as Content | undefined);
    if (message.role === 'system') {
      if (typeof content !== 'string') throw need(at, 'a system message takes text content', PLAIN);
      if (cache) throw need(at, 'cache_control goes on a user, assistant or tool message', PLAIN);
      system.push(content);
      return;
    }
    if (message.role === 'tool' && !callId) throw need(at, 'a tool message needs tool_call_id');
    if (message.role !== 'tool' && callId) throw need(at, 'only a tool message takes tool_call_id');
    if (calls.length > 0 && message.role !== 'assistant')
      throw need(at, 'only an assistant message takes tool_calls');
    if (content === undefined && calls.length === 0) throw need(at, 'content is missing', PLAIN);
    turns.push({
      role: message.role,
      ...(content !== undefined ? { content } : {}),
      calls: calls.map((call) => ({ id: call.id, name: call.name, json: jsonOf(call) })),
      ...(callId ? { callId } : {}),
      ...(cache ? { cache } : {}),
      at,
    });
  });
  const answered = new Set(turns.flatMap((t) => t.calls.map((c) => c.id)));
  for (const turn of turns) {
    // A call answered here but made in a stored response (previous_response_id) is known upstream only.
    if (turn.callId && answered.size > 0 && !answered.has(turn.callId))
      throw need(turn.at, `tool_call_id "${turn.callId}" answers no tool call of the conversation`);
  }
  return { system: system.join('\n\n') || undefined, turns, count: given.length };
}

const PLAIN_TURN: ReturnType<typeof Extras.safeParse> = { success: true, data: {} };

function hasExtras(message: Message): boolean {
  const fields = message as Record<string, unknown>;
  return (
    fields.tool_calls !== undefined || fields.tool_call_id !== undefined || fields.cache_control !== undefined
  );
}

function jsonOf(call: { arguments?: unknown; raw?: string }): string {
  if (call.raw !== undefined) return call.raw;
  if (typeof call.arguments === 'string') return call.arguments;
  return JSON.stringify(call.arguments ?? {});
}

const LOOP =
  'A tool loop sends the assistant message with the tool_calls chat returned, then one {role: "tool", tool_call_id, content} per call.';
const PLAIN = 'Give each message content: text, or an array of content blocks.';

function need(at: number, what: string, fix = LOOP): InputError {
  return new InputError(`${where(at)}: ${what}.`, { param: where(at), fix });
}

/** The plain text of content: a string, or the text of its text blocks. */
export function textOf(content: Content | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((block) =>
      block && typeof block === 'object' && 'text' in block && typeof block.text === 'string'
        ? block.text
        : '',
    )
    .filter(Boolean)
    .join('\n');
}

/** Content with a cache breakpoint on its last block (a string becomes one text block). */
export function marked(content: Content | undefined, cache: Marker | undefined): Content | undefined {
  if (!cache || content === undefined) return content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  const last = blocks.at(-1);
  if (last && typeof last === 'object') blocks[blocks.length - 1] = { ...last, cache_control: cache };
  return blocks;
}

/** A tool call's arguments as the object the messages format's `tool_use.input` needs. */
export function inputOf(call: Call, at: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.json || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new InputError(`${where(at, 'tool_calls')}: the arguments of ${call.name} are not a JSON object.`, {
    param: where(at, 'tool_calls'),
    fix: 'The messages format needs tool call arguments as a JSON object.',
  });
}
