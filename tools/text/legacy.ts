import { z } from 'zod';
import { REPORT_UPSTREAM, UpstreamInvalidError } from '../../src/errors.js';
import { safeJson } from '../../src/lang.js';
import { readReply } from '../../src/replies/read.js';
import type { Api } from '../../src/upstream/client.js';
import { textOf } from './conversation.js';
import type { ChatState } from './reply.js';
import type { ChatRequest } from './request.js';
import type { Exchange } from './send.js';

/**
 * The legacy text route (spec 2 §4.2), used when the chat-completions route answers 404: body
 * `prompt`, `model`, earlier `messages`; the reply is plain text followed by a JSON block with `cost`,
 * `inputTokens` and `outputTokens` inside a tag pair named after the platform (matched by pattern,
 * never by the literal word).
 */
export const LEGACY_PATH = '/api/talk-to-gpt';

const Footer = z.looseObject({
  cost: z.number().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
});
const CLOSING_TAG = /^<\/([A-Za-z][\w-]*)>$/;

/**
 * The reply's closing `<name>{json}</name>` block: where it starts and its JSON. Found by scanning
 * (the closing tag at the end, then the first `<name>` followed by `{`), never by a backtracking
 * regex over the whole reply, which the platform writes.
 */
function taggedBlock(reply: string): { index: number; json: string } | undefined {
  const trimmed = reply.trimEnd();
  const close = trimmed.lastIndexOf('</');
  const name = close < 0 ? undefined : CLOSING_TAG.exec(trimmed.slice(close))?.[1];
  if (!name) return undefined;
  const open = `<${name}>`;
  for (let at = trimmed.indexOf(open); at >= 0 && at < close; at = trimmed.indexOf(open, at + 1)) {
    const body = trimmed.slice(at + open.length, close).trim();
    if (body.startsWith('{')) return body.endsWith('}') ? { index: at, json: body } : undefined;
  }
  return undefined;
}

export async function legacyInto(state: ChatState, api: Api, request: ChatRequest): Promise<Exchange> {
  const { system, turns } = request.conversation;
  const last = turns.at(-1);
  const history = [
    ...(system ? [{ role: 'system', content: system }] : []),
    ...turns.slice(0, -1).map((t) => ({ role: t.role, content: textOf(t.content) })),
  ];
  const res = await api.bytes({
    method: 'POST',
    path: LEGACY_PATH,
    body: {
      model: request.body.model,
      prompt: last?.role === 'user' ? textOf(last.content) : '',
      ...(history.length ? { messages: history } : {}),
    },
    headers: { ...request.headers, accept: 'text/plain, application/json' },
    apiKeyHeader: 'x-api-key',
  });
  const reply = res.data.toString('utf8');
  const tagged = taggedBlock(reply);
  const footer = tagged ? readReply(Footer, safeJson(tagged.json)) : undefined;
  if (!tagged || !footer?.success) {
    throw new UpstreamInvalidError('The legacy text route replied without its tagged cost block.', {
      requestId: res.requestId,
      fix: REPORT_UPSTREAM,
    });
  }
  const f = footer.data;
  state.text = reply.slice(0, tagged.index).trimEnd();
  state.finish_reason = 'stop';
  state.usage = { input_tokens: f.inputTokens, output_tokens: f.outputTokens };
  if (f.cost !== undefined) state.cost = { amount: f.cost, currency: 'USD' };
  return { requestId: res.requestId };
}
