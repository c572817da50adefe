import { describe, expect, it } from 'vitest';
import type { Api, SseResponse } from '../../../src/http/client.js';
import type { SseBatch } from '../../../src/http/sse.js';
import type { ToolContext } from '../../../src/mcp/define-tool.js';
import chat from '../../../tools/text/chat.js';

const chunk = (content: string, finish?: string) => ({
  data: JSON.stringify({ model: 'm', choices: [{ delta: { content }, finish_reason: finish ?? null }] }),
});

/** `chat` over a stream whose network reads are given: what it reports as progress. */
async function reportsFor(batches: SseBatch[]): Promise<{ reports: string[]; text: string }> {
  const reports: string[] = [];
  const api = {
    stream: async (): Promise<SseResponse> => ({
      status: 200,
      headers: {},
      batches: (async function* () {
        yield* batches;
      })(),
    }),
  } as unknown as Api;
  const ctx = {
    api,
    progress: { report: (message: string) => reports.push(message) },
  } as unknown as ToolContext;
  const out = (await chat.run(chat.input.parse({ model: 'm', prompt: 'hi' }), ctx)) as { text: string };
  return { reports, text: out.text };
}

describe('chat progress', () => {
  it('reports the answer once per network read, but not the read that ends the stream', async () => {
    const { reports, text } = await reportsFor([
      { events: [chunk('Hel'), chunk('lo')], last: false },
      { events: [chunk(', wor')], last: false },
      { events: [chunk('ld', 'stop')], last: true },
    ]);
    expect(reports).toEqual(['Hello', 'Hello, wor']);
    expect(text).toBe('Hello, world');
  });

  it('reports nothing when the whole answer comes in one read', async () => {
    const { reports, text } = await reportsFor([
      { events: [chunk('All'), chunk(' at once', 'stop')], last: true },
    ]);
    expect(reports).toEqual([]);
    expect(text).toBe('All at once');
  });
});
