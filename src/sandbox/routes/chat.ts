import type { Hono } from 'hono';
import { requireKey } from '../billing.js';
import { jsonBody, optionalBoolean, optionalNumber, optionalObject } from '../body.js';
import { badRequest } from '../errors.js';
import { streamSse } from '../sse.js';
import { readReasoning, readServiceTier, stopSequences } from '../text/options.js';
import { runText, textHeaders, usageOmitted } from '../text/pipeline.js';
import { markerTtl, type PromptSegment, readCachePlan } from '../text/prompt-cache.js';
import { resolveTextModel } from '../text/resolve.js';
import { contentText } from '../text/tokens.js';
import { readChatTools } from '../text/tool-input.js';
import type { ToolResult, ToolSpec } from '../text/tools.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { isRecord, pad } from '../util.js';
import { type ChatReply, chatFrames, chunkMaker, completion } from './chat-format.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

/** Chat completions (spec 2 §4.2, §6), with tools, reasoning, caching and routing controls. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.post('/api/v1/chat/completions', async (c) => {
    const key = requireKey(c, ctx);
    const body = jsonBody(c);
    const resolved = resolveTextModel(body.model);
    const messages = readMessages(body.messages);
    const maxTokens =
      optionalNumber(body, 'max_completion_tokens', { min: 1, integer: true }) ??
      optionalNumber(body, 'max_tokens', { min: 1, integer: true });
    optionalNumber(body, 'temperature', { min: 0, max: 2 });
    optionalNumber(body, 'top_p', { min: 0, max: 1 });
    stopSequences(body, 'stop');
    readServiceTier(body, resolved.model);
    const stream = optionalBoolean(body, 'stream') === true;
    const includeUsage = optionalObject(body, 'stream_options')?.include_usage === true;
    const tools = readChatTools(body, resolved.model);
    const segments = promptSegments(messages, tools?.tools);
    const gen = runText(c, ctx, key, {
      resolved,
      segments,
      lastUserText: contentText([...messages].reverse().find((m) => m.role === 'user')?.content),
      toolResults: trailingResults(messages),
      ...(tools ? { tools } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      reasoning: readReasoning(body),
      cache: readCachePlan(body, {
        suffix: resolved.caching,
        markers: segments.some((s) => s.marker),
        messageCount: messages.length,
      }),
    });
    const reply: ChatReply = {
      id: `chatcmpl-sbx-${pad(c.get('seq'))}`,
      created: Math.floor(ctx.now() / 1000),
      gen,
      omitUsage: usageOmitted(c),
    };
    if (!stream) return c.json(completion(reply), 200, textHeaders(gen));
    const chunk = chunkMaker(reply);
    return streamSse(c, ctx, chatFrames(reply, includeUsage), {
      headers: textHeaders(gen),
      errorFrames: (error) => [
        { data: chunk([{ index: 0, delta: {}, finish_reason: 'error' }], { error }) },
        { data: '[DONE]' },
      ],
    });
  });
}

interface Message {
  role: string;
  content: unknown;
  cacheControl: unknown;
  toolCalls: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
}

const invalid = (message: string) => badRequest(message, 'invalid_parameter_value', 'messages');

function readMessages(value: unknown): Message[] {
  if (value === undefined)
    throw badRequest('`messages` is required.', 'missing_required_parameter', 'messages');
  if (!Array.isArray(value) || value.length === 0) throw invalid('`messages` must be a non-empty array.');
  const callIds = new Set<string>();
  return value.map((m, i) => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.includes(m.role))
      throw invalid(`messages[${i}] needs a role (${ROLES.join(', ')}) and content.`);
    const toolCalls = readToolCalls(m.tool_calls, i);
    for (const call of toolCalls) callIds.add(call.id);
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string' || !callIds.has(m.tool_call_id)) {
        throw invalid(
          `messages[${i}]: a message with role 'tool' must answer a preceding assistant tool call by its tool_call_id.`,
        );
      }
      return {
        role: m.role,
        content: m.content,
        cacheControl: m.cache_control,
        toolCalls,
        toolCallId: m.tool_call_id,
      };
    }
    return { role: m.role, content: m.content, cacheControl: m.cache_control, toolCalls };
  });
}

function readToolCalls(value: unknown, i: number): Message['toolCalls'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`messages[${i}].tool_calls must be an array.`);
  return value.map((call, j) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(fn) || typeof fn.name !== 'string')
      throw invalid(`messages[${i}].tool_calls[${j}] needs an id and function {name, arguments}.`);
    return { id: call.id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' };
  });
}

/** Tools first, then each message (one segment per content part, so part markers can cut inside it). */
function promptSegments(messages: Message[], tools: ToolSpec[] | undefined): PromptSegment[] {
  const segments: PromptSegment[] = tools ? [{ text: JSON.stringify(tools), message: -1 }] : [];
  messages.forEach((m, i) => {
    const calls = m.toolCalls.map((call) => `${call.name}(${call.arguments})`);
    if (Array.isArray(m.content) && m.content.length > 0) {
      m.content.forEach((part, j) => {
        const marker = isRecord(part)
          ? markerTtl(part.cache_control, `messages[${i}].content[${j}]`)
          : undefined;
        segments.push({ text: contentText([part]), message: i, ...(marker ? { marker } : {}) });
      });
      for (const call of calls) segments.push({ text: call, message: i });
      return;
    }
    const marker = markerTtl(m.cacheControl, `messages[${i}]`);
    const text = [contentText(m.content), ...calls].filter(Boolean).join('\n');
    segments.push({ text, message: i, ...(marker ? { marker } : {}) });
  });
  return segments;
}

/** The tool messages that end the conversation, named after the calls they answer. */
function trailingResults(messages: Message[]): ToolResult[] {
  const names = new Map(messages.flatMap((m) => m.toolCalls.map((call) => [call.id, call.name] as const)));
  const results: ToolResult[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) {
    const m = messages[i]!;
    results.unshift({ name: names.get(m.toolCallId ?? '') ?? 'tool', content: contentText(m.content) });
  }
  return results;
}
