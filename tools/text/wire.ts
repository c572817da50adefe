import { type Content, type Conversation, inputOf, marked, type Turn, textOf } from './conversation.js';
import type { ToolDef } from './options.js';

/**
 * The conversation, tools and tool choice in each wire format's own syntax (spec 2 §4.1, §4.2).
 * Each writer also says where every caller message landed (`placed[at]`), so a cache cut named by
 * the caller's index reaches the right wire message.
 */
export interface Written {
  body: Record<string, unknown>;
  /** Wire index of each caller message (-1 when it has none of its own, e.g. a system message). */
  placed: number[];
}

export function chatMessages(c: Conversation): Written {
  const messages: unknown[] = c.system ? [{ role: 'system', content: c.system }] : [];
  const placed = new Array<number>(c.count).fill(c.system ? 0 : -1);
  for (const turn of c.turns) {
    placed[turn.at] = messages.length;
    if (turn.role === 'tool') {
      messages.push({ role: 'tool', tool_call_id: turn.callId, content: marked(turn.content, turn.cache) });
      continue;
    }
    const calls = turn.calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.json },
    }));
    messages.push({
      role: turn.role,
      content: marked(turn.content, turn.cache) ?? null,
      ...(calls.length ? { tool_calls: calls } : {}),
    });
  }
  return { body: { messages }, placed };
}

/** Messages format: tool uses in the assistant turn, tool results together in the next user turn. */
export function messagesMessages(c: Conversation): Written {
  const messages: { role: string; content: Content }[] = [];
  const placed = new Array<number>(c.count).fill(-1);
  for (const turn of c.turns) {
    const last = messages.at(-1);
    if (turn.role === 'tool') {
      const block = { type: 'tool_result', tool_use_id: turn.callId, content: turn.content ?? '' };
      const withMarker = turn.cache ? { ...block, cache_control: turn.cache } : block;
      if (last?.role === 'user' && Array.isArray(last.content) && isToolResults(last.content))
        last.content.push(withMarker);
      else messages.push({ role: 'user', content: [withMarker] });
    } else if (turn.role === 'assistant' && turn.calls.length > 0) {
      const text = turn.content === undefined || textOf(turn.content) === '' ? [] : blocks(turn.content);
      const uses = turn.calls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: inputOf(call, turn.at),
      }));
      messages.push({ role: 'assistant', content: marked([...text, ...uses], turn.cache) ?? [] });
    } else if (turn.role === 'user' && last?.role === 'user' && hasToolResults(last.content)) {
      // A question right after tool results joins their turn: the roles must alternate.
      (last.content as unknown[]).push(...blocks(marked(turn.content, turn.cache) ?? ''));
    } else {
      messages.push({ role: turn.role, content: marked(turn.content, turn.cache) ?? '' });
    }
    placed[turn.at] = messages.length - 1;
  }
  return { body: { ...(c.system ? { system: c.system } : {}), messages }, placed };
}

/** Responses format: message items, `function_call` items echoed back, `function_call_output` items. */
export function responsesInput(c: Conversation): Written {
  const input: unknown[] = c.system ? [{ role: 'system', content: c.system }] : [];
  const placed = new Array<number>(c.count).fill(c.system ? 0 : -1);
  for (const turn of c.turns) {
    if (turn.role === 'tool') {
      input.push({ type: 'function_call_output', call_id: turn.callId, output: outputText(turn) });
    } else {
      if (turn.content !== undefined && textOf(turn.content) !== '')
        input.push({ role: turn.role, content: turn.content });
      for (const call of turn.calls)
        input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.json });
    }
    placed[turn.at] = input.length - 1;
  }
  return { body: { input }, placed };
}

/** Completions format: one prompt string (text only; checked before this is called). */
export function completionsPrompt(c: Conversation): Written {
  const parts = [c.system, ...c.turns.map((t) => textOf(t.content))].filter(Boolean);
  return { body: { prompt: parts.join('\n\n') }, placed: new Array<number>(c.count).fill(0) };
}

const blocks = (content: Content): unknown[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];

const isToolResult = (b: unknown): boolean =>
  !!b && typeof b === 'object' && 'type' in b && b.type === 'tool_result';
const isToolResults = (content: unknown[]): boolean => content.every(isToolResult);
const hasToolResults = (content: Content): boolean => Array.isArray(content) && content.some(isToolResult);

const outputText = (turn: Turn): string =>
  typeof turn.content === 'string'
    ? turn.content
    : textOf(turn.content) || JSON.stringify(turn.content ?? '');

// ---- tools ------------------------------------------------------------------------------

const EMPTY_SCHEMA = { type: 'object', properties: {} };

export function toolsFor(format: 'chat' | 'messages' | 'responses', tools: ToolDef[]): unknown[] {
  return tools.map((t) => {
    const parameters = t.parameters ?? EMPTY_SCHEMA;
    const description = t.description === undefined ? {} : { description: t.description };
    if (format === 'messages') return { name: t.name, ...description, input_schema: parameters };
    if (format === 'responses') return { type: 'function', name: t.name, ...description, parameters };
    return { type: 'function', function: { name: t.name, ...description, parameters } };
  });
}

/** `auto`, `none`, `required` or a tool's name, in each format's syntax. */
export function toolChoiceFor(format: 'chat' | 'messages' | 'responses', choice: string): unknown {
  const simple = ['auto', 'none', 'required'].includes(choice);
  if (format === 'messages') {
    if (simple) return { type: choice === 'required' ? 'any' : choice };
    return { type: 'tool', name: choice };
  }
  if (simple) return choice;
  return format === 'responses'
    ? { type: 'function', name: choice }
    : { type: 'function', function: { name: choice } };
}
