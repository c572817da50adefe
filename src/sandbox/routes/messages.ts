import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalObject, optionalString } from '../body.js';
import { badRequest, typeForStatus } from '../errors.js';
import { streamSse } from '../sse.js';
import { stopSequences } from '../text/options.js';
import { runText, textHeaders, usageOmitted } from '../text/pipeline.js';
import { joinSegments, markerTtl, type PromptSegment, readCachePlan } from '../text/prompt-cache.js';
import { resolveTextModel } from '../text/resolve.js';
import { contentText, estimateTokens } from '../text/tokens.js';
import { readMessagesTools } from '../text/tool-input.js';
import type { ToolResult, ToolSpec } from '../text/tools.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad } from '../util.js';
import { type MessageReply, message, messageFrames } from './messages-format.js';

const SERVICE_TIERS = ['auto', 'default', 'standard', 'flex', 'priority', 'batch'];

/** Messages format (spec 2 §2.2, §4.1); errors use the messages envelope. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/v1/messages', 'messages');

  app.post('/api/v1/messages/count_tokens', (c) => {
    requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const tools = readMessagesTools(body, resolved.model);
    const segments = promptSegments(body, readMessages(body.messages), tools?.tools);
    return c.json({ input_tokens: estimateTokens(joinSegments(segments)) });
  });

  app.post('/api/v1/messages', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const maxTokens = body.max_tokens;
    if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 1) {
      throw badRequest(
        'max_tokens: a finite number >= 1 is required.',
        'missing_required_parameter',
        'max_tokens',
      );
    }
    const messages = readMessages(body.messages);
    optionalString(body, 'service_tier', SERVICE_TIERS);
    optionalNumber(body, 'temperature', { min: 0, max: 1 });
    optionalNumber(body, 'top_p', { min: 0, max: 1 });
    optionalNumber(body, 'top_k', { min: 0, integer: true });
    stopSequences(body, 'stop_sequences');
    const thinking = readThinking(body, maxTokens);
    const tools = readMessagesTools(body, resolved.model);
    const beta = c.req.header('anthropic-beta') ?? '';
    const segments = promptSegments(body, messages, tools?.tools);
    const asker = [...messages].reverse().find((m) => m.role === 'user' && userText(m.content));
    const gen = runText(c, ctx, key, {
      resolved,
      segments,
      lastUserText: asker ? userText(asker.content) : '',
      toolResults: trailingResults(messages),
      ...(tools ? { tools } : {}),
      maxTokens,
      thinking,
      cache: readCachePlan(body, {
        suffix: resolved.caching,
        markers: segments.some((s) => s.marker) || beta.includes('prompt-caching'),
        messageCount: messages.length,
        oneHour: beta.includes('extended-cache-ttl'),
      }),
    });
    const reply: MessageReply = { id: `msg_sbx_${pad(c.get('seq'))}`, gen, omitUsage: usageOmitted(c) };
    if (optionalBoolean(body, 'stream') !== true) return c.json(message(reply), 200, textHeaders(gen));
    return streamSse(c, ctx, messageFrames(reply), {
      headers: textHeaders(gen),
      errorFrames: (error) => [
        {
          event: 'error',
          data: { type: 'error', error: { type: typeForStatus(error.status), message: error.message } },
        },
      ],
    });
  });
}

interface Message {
  role: 'user' | 'assistant';
  content: unknown;
}

const invalid = (message: string) => badRequest(message, 'invalid_parameter_value', 'messages');

/** Roles, content shapes, and tool blocks where they belong: each `tool_result` answers a `tool_use` just before it. */
function readMessages(value: unknown): Message[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest('messages: a non-empty array is required.', 'missing_required_parameter', 'messages');
  }
  let previousUses = new Set<string>();
  return value.map((m, i) => {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant'))
      throw invalid(`messages.${i}.role: must be user or assistant.`);
    if (typeof m.content !== 'string' && !Array.isArray(m.content))
      throw invalid(`messages.${i}.content: must be a string or content blocks.`);
    const blocks = Array.isArray(m.content) ? m.content.filter(isRecord) : [];
    const uses = new Set<string>();
    blocks.forEach((block, j) => {
      if (block.type === 'tool_use') {
        if (m.role !== 'assistant' || typeof block.id !== 'string' || typeof block.name !== 'string')
          throw invalid(
            `messages.${i}.content.${j}: tool_use blocks need an id and a name, in assistant messages.`,
          );
        uses.add(block.id);
      }
      if (block.type === 'tool_result') {
        if (m.role !== 'user')
          throw invalid(`messages.${i}.content.${j}: tool_result blocks belong in user messages.`);
        if (typeof block.tool_use_id !== 'string' || !previousUses.has(block.tool_use_id)) {
          throw invalid(
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` in a \`tool_result\` block; each tool_result must answer a tool_use block of the previous message.`,
          );
        }
      }
    });
    previousUses = uses;
    return { role: m.role, content: m.content };
  });
}

/** Thinking rules (spec 2 §4.1): budget >= 1024 and < max_tokens; honoured only by thinking models. */
function readThinking(body: Record<string, unknown>, maxTokens: number): boolean {
  const thinking = optionalObject(body, 'thinking');
  if (!thinking || thinking.type === 'disabled') return false;
  if (thinking.type !== 'enabled') {
    throw badRequest(
      'thinking.type: must be "enabled" or "disabled".',
      'invalid_parameter_value',
      'thinking',
    );
  }
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
    throw badRequest(
      'thinking.budget_tokens: must be an integer >= 1024.',
      'invalid_parameter_value',
      'thinking.budget_tokens',
    );
  }
  if (budget >= maxTokens) {
    throw badRequest(
      'thinking.budget_tokens: must be less than max_tokens.',
      'invalid_parameter_value',
      'thinking.budget_tokens',
    );
  }
  return true;
}

/** The text a block stands for in the prompt; tool uses as `name(input)`. */
function blockText(block: unknown): string {
  if (isRecord(block) && block.type === 'tool_use')
    return `${String(block.name)}(${JSON.stringify(block.input ?? {})})`;
  if (isRecord(block) && block.type === 'tool_result') return contentText(block.content);
  return contentText([block]);
}

/** What the user typed in a message (tool results left out). */
function userText(content: unknown): string {
  if (!Array.isArray(content)) return contentText(content);
  return contentText(content.filter((b) => !isRecord(b) || b.type !== 'tool_result'));
}

/** Tools, the system prompt, then each non-empty message block by block (markers may sit on any block). */
function promptSegments(
  body: Record<string, unknown>,
  messages: Message[],
  tools?: ToolSpec[],
): PromptSegment[] {
  const segments: PromptSegment[] = tools ? [{ text: JSON.stringify(tools), message: -1 }] : [];
  const add = (content: unknown, message: number, where: string) => {
    if (!Array.isArray(content)) {
      if (contentText(content)) segments.push({ text: contentText(content), message });
      return;
    }
    const parts = content.map((block, j) => ({
      text: blockText(block),
      message,
      marker: isRecord(block) ? markerTtl(block.cache_control, `${where}.${j}`) : undefined,
    }));
    if (parts.every((p) => !p.text)) return;
    for (const { marker, ...part } of parts) segments.push(marker ? { ...part, marker } : part);
  };
  add(body.system, -1, 'system');
  messages.forEach((m, i) => {
    add(m.content, i, `messages.${i}.content`);
  });
  return segments;
}

/** The tool results of a final user message, named after the tool_use blocks they answer. */
function trailingResults(messages: Message[]): ToolResult[] {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  const names = new Map<string, string>();
  const previous = messages.at(-2);
  if (Array.isArray(previous?.content)) {
    for (const block of previous.content) {
      if (isRecord(block) && block.type === 'tool_use') names.set(String(block.id), String(block.name));
    }
  }
  return last.content
    .filter((b) => isRecord(b) && b.type === 'tool_result')
    .map((b) => ({
      name: names.get(String(isRecord(b) ? b.tool_use_id : '')) ?? 'tool',
      content: contentText(isRecord(b) ? b.content : ''),
    }));
}
