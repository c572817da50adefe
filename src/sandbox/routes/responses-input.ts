import { badRequest } from '../errors.js';
import type { PromptSegment } from '../text/prompt-cache.js';
import type { Turn } from '../text/response-store.js';
import { contentText } from '../text/tokens.js';
import type { ToolResult, ToolSpec } from '../text/tools.js';
import { isRecord } from '../util.js';

/**
 * The responses `input` (spec 2 §4.2): a string, or items — messages (`{role, content}` with or
 * without `type: message`), `function_call` items echoed back, `function_call_output` items
 * answering a call of this input or of the stored conversation, and ignored `reasoning` items.
 */
const ROLES = ['user', 'assistant', 'system', 'developer'];

const invalid = (message: string) => badRequest(message, 'invalid_parameter_value', 'input');

export function readInput(value: unknown, history: Turn[]): Turn[] {
  if (value === undefined || value === null)
    throw badRequest('`input` is required.', 'missing_required_parameter', 'input');
  if (typeof value === 'string') return [{ role: 'user', text: value }];
  if (!Array.isArray(value) || value.length === 0)
    throw invalid('`input` must be a string or a non-empty array of items.');
  const calls = new Map(history.flatMap((t) => (t.calls ?? []).map((c) => [c.callId, c.name] as const)));
  const turns: Turn[] = [];
  value.forEach((item, i) => {
    if (!isRecord(item)) throw invalid(`input[${i}] must be an object.`);
    if (item.type === 'reasoning') return;
    if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string')
        throw invalid(`input[${i}]: a function_call item needs call_id and name.`);
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      calls.set(item.call_id, item.name);
      turns.push({
        role: 'assistant',
        text: `${item.name}(${args})`,
        calls: [{ callId: item.call_id, name: item.name }],
      });
      return;
    }
    if (item.type === 'function_call_output') {
      const name = typeof item.call_id === 'string' ? calls.get(item.call_id) : undefined;
      if (name === undefined)
        throw invalid(
          `input[${i}]: no function call found for function_call_output with call_id ${String(item.call_id)}.`,
        );
      turns.push({ role: 'tool', text: contentText(item.output), tool: name });
      return;
    }
    if (item.type !== undefined && item.type !== 'message')
      throw invalid(`input[${i}].type "${String(item.type)}" is not supported here.`);
    const role = item.role ?? 'user';
    if (typeof role !== 'string' || !ROLES.includes(role))
      throw invalid(`input[${i}].role must be one of ${ROLES.join(', ')}.`);
    turns.push({ role, text: contentText(item.content ?? item.text) });
  });
  return turns;
}

/** Tools, instructions, then the stored turns and this input, one segment per turn. */
export function responseSegments(
  tools: ToolSpec[] | undefined,
  instructions: string,
  turns: Turn[],
): PromptSegment[] {
  const head: PromptSegment[] = [
    ...(tools ? [{ text: JSON.stringify(tools), message: -1 }] : []),
    ...(instructions ? [{ text: instructions, message: -1 }] : []),
  ];
  return [...head, ...turns.map((t, i) => ({ text: t.text, message: i }))];
}

/** The function outputs that end the input. */
export function trailingResults(turns: Turn[]): ToolResult[] {
  const results: ToolResult[] = [];
  for (let i = turns.length - 1; i >= 0 && turns[i]!.role === 'tool'; i--) {
    results.unshift({ name: turns[i]!.tool ?? 'tool', content: turns[i]!.text });
  }
  return results;
}
