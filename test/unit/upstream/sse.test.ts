import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StaticCredentials } from '../../../src/credentials.js';
import { AbortedError, OrbitError, StreamFailedError, StreamIncompleteError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { HttpClient } from '../../../src/upstream/client.js';
import { readSse, type SseBatch, type SseEvent } from '../../../src/upstream/sse.js';
import { type Handler, json, type ScriptedServer, startServer } from './server.js';

const encoder = new TextEncoder();

/** Yields each chunk as bytes; strings are UTF-8 encoded, byte arrays pass unchanged. */
async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

async function collect(batches: AsyncIterable<SseBatch>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const batch of batches) out.push(...batch.events);
  return out;
}

/** Collects until the stream throws; fails the test if it ends normally. */
async function collectFailure(
  batches: AsyncIterable<SseBatch>,
): Promise<{ seen: SseEvent[]; error: OrbitError }> {
  const seen: SseEvent[] = [];
  try {
    for await (const batch of batches) seen.push(...batch.events);
  } catch (error) {
    expect(error).toBeInstanceOf(OrbitError);
    return { seen, error: error as OrbitError };
  }
  throw new Error(`expected the stream to fail, but it ended after ${seen.length} events`);
}

describe('readSse', () => {
  it('yields data frames in order and ends at [DONE]', async () => {
    const events = await collect(readSse(chunks('data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n')));
    expect(events).toEqual([{ data: '{"a":1}' }, { data: '{"a":2}' }]);
  });

  it('keeps the name of named events', async () => {
    const events = await collect(
      readSse(
        chunks(
          'event: message_start\ndata: {"type":"message_start"}\n\n',
          'event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n',
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(events).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'content_block_delta', data: '{"type":"content_block_delta"}' },
    ]);
  });

  it('joins multi-line data frames with a newline', async () => {
    const events = await collect(readSse(chunks('data: {"a":\ndata: 1}\n\ndata: [DONE]\n\n')));
    expect(events).toEqual([{ data: '{"a":\n1}' }]);
    expect(JSON.parse(events[0]?.data ?? '')).toEqual({ a: 1 });
  });

  it('reassembles frames split across chunk boundaries', async () => {
    const events = await collect(
      readSse(chunks('da', 'ta: {"x"', ':"y"}', '\n', '\nev', 'ent: e\ndata: 2\n\ndata: [DO', 'NE]\n\n')),
    );
    expect(events).toEqual([{ data: '{"x":"y"}' }, { event: 'e', data: '2' }]);
  });

  it('reassembles a UTF-8 character split between chunks', async () => {
    const bytes = encoder.encode('data: {"t":"héllo 🚀"}\n\ndata: [DONE]\n\n');
    const rocket = bytes.indexOf(0xf0);
    const e = bytes.indexOf(0xc3);
    const parts = [bytes.slice(0, e + 1), bytes.slice(e + 1, rocket + 2), bytes.slice(rocket + 2)];
    const events = await collect(readSse(chunks(...parts)));
    expect(events).toEqual([{ data: '{"t":"héllo 🚀"}' }]);
  });

  it('accepts CRLF line endings', async () => {
    const events = await collect(readSse(chunks('data: 1\r\n\r\ndata: [DONE]\r\n\r\n')));
    expect(events).toEqual([{ data: '1' }]);
  });

  it('ignores comments and keep-alives', async () => {
    const events = await collect(
      readSse(chunks(': keep-alive\n\n', ':\n\n', 'data: 1\n\n', ': ping\n\ndata: [DONE]\n\n')),
    );
    expect(events).toEqual([{ data: '1' }]);
  });

  it('yields nothing after [DONE] but reads the body to its end, so the connection is kept', async () => {
    let pulled = 0;
    let finished = false;
    async function* body() {
      for (const part of ['data: 1\n\ndata: [DONE]\n\n', 'data: after\n\n']) {
        pulled++;
        yield encoder.encode(part);
      }
      finished = true;
    }
    expect(await collect(readSse(body()))).toEqual([{ data: '1' }]);
    await vi.waitFor(() => expect(finished).toBe(true));
    expect(pulled).toBe(2);
  });

  it('cuts a body the platform holds open after [DONE] once the grace period is over', async () => {
    let destroyed = false;
    let release: () => void = () => {};
    const held = {
      async *[Symbol.asyncIterator]() {
        yield encoder.encode('data: 1\n\ndata: [DONE]\n\n');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      destroy() {
        destroyed = true;
        release();
      },
    };
    expect(await collect(readSse(held, { drainMs: 20 }))).toEqual([{ data: '1' }]);
    expect(destroyed).toBe(false);
    await vi.waitFor(() => expect(destroyed).toBe(true));
  });

  it('hands over the events of one network read as one batch, the one with the marker as last', async () => {
    const batches: SseBatch[] = [];
    for await (const batch of readSse(chunks('data: 1\n\ndata: 2\n\n', 'data: 3\n\ndata: [DONE]\n\n'))) {
      batches.push(batch);
    }
    expect(batches).toEqual([
      { events: [{ data: '1' }, { data: '2' }], last: false },
      { events: [{ data: '3' }], last: true },
    ]);
  });

  it('destroys the body when the caller stops reading early', async () => {
    let destroyed = false;
    const body = {
      async *[Symbol.asyncIterator]() {
        try {
          yield encoder.encode('data: 1\n\n');
          yield encoder.encode('data: 2\n\n');
        } finally {
          destroyed = true;
        }
      },
    };
    for await (const _batch of readSse(body)) break;
    await vi.waitFor(() => expect(destroyed).toBe(true));
  });

  it('stops at an event isTerminal accepts, without needing [DONE]', async () => {
    const events = await collect(
      readSse(
        chunks(
          'data: {"type":"response.created"}\n\n',
          'data: {"type":"response.completed"}\n\n',
          'data: {"type":"never.read"}\n\n',
        ),
        { isTerminal: (event) => event.data.includes('response.completed') },
      ),
    );
    expect(events.map((event) => JSON.parse(event.data).type)).toEqual([
      'response.created',
      'response.completed',
    ]);
  });

  it('throws stream_incomplete when the body ends without a terminal marker', async () => {
    const { seen, error } = await collectFailure(
      readSse(chunks('data: 1\n\n', 'data: 2\n\n'), { requestId: 'req_eof' }),
    );
    expect(seen).toEqual([{ data: '1' }, { data: '2' }]);
    expect(error).toBeInstanceOf(StreamIncompleteError);
    expect(error.code).toBe('stream_incomplete');
    expect(error.requestId).toBe('req_eof');
    expect(error.fix).toMatch(/\w/);
  });

  it('throws stream_incomplete when the body ends mid-frame', async () => {
    const { error } = await collectFailure(readSse(chunks('data: 1\n\n', 'data: [DO')));
    expect(error.code).toBe('stream_incomplete');
  });

  it('throws stream_incomplete for an empty body', async () => {
    const { seen, error } = await collectFailure(readSse(chunks()));
    expect(seen).toEqual([]);
    expect(error.code).toBe('stream_incomplete');
  });

  it('turns a chat error chunk into stream_error with its status, message, code and the request id', async () => {
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
      error: { status: 502, message: 'Upstream provider failed', code: 'all_fallbacks_failed' },
    };
    const { seen, error } = await collectFailure(
      readSse(
        chunks(
          'data: {"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n',
          `data: ${JSON.stringify(chunk)}\n\n`,
          'data: [DONE]\n\n',
        ),
        { requestId: 'req_sse' },
      ),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(StreamFailedError);
    expect(error).toMatchObject({
      code: 'stream_error',
      status: 502,
      message: 'Upstream provider failed',
      upstreamCode: 'all_fallbacks_failed',
      requestId: 'req_sse',
    });
  });

  it('passes a chunk whose content merely mentions "error" through', async () => {
    const data = JSON.stringify({
      choices: [{ delta: { content: 'an "error" occurred' }, finish_reason: null }],
    });
    const events = await collect(readSse(chunks(`data: ${data}\n\n`, 'data: [DONE]\n\n')));
    expect(events).toEqual([{ data }]);
  });

  it('turns a messages-format error event into stream_error with the error type as code', async () => {
    const { error } = await collectFailure(
      readSse(
        chunks(
          'event: message_start\ndata: {"type":"message_start"}\n\n',
          'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
        ),
      ),
    );
    expect(error).toMatchObject({
      code: 'stream_error',
      message: 'Overloaded',
      upstreamCode: 'overloaded_error',
    });
  });

  it('turns response.failed into stream_error with the nested error', async () => {
    const failed = {
      type: 'response.failed',
      sequence_number: 7,
      response: { status: 'failed', error: { code: 'server_error', message: 'The model crashed' } },
    };
    const { seen, error } = await collectFailure(
      readSse(
        chunks(
          'data: {"type":"response.created","sequence_number":0}\n\n',
          `data: ${JSON.stringify(failed)}\n\n`,
        ),
      ),
    );
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({
      code: 'stream_error',
      message: 'The model crashed',
      upstreamCode: 'server_error',
    });
  });

  it('turns a transport error of the body into stream_incomplete with the request id', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield encoder.encode('data: 1\n\n');
      throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    }
    const { seen, error } = await collectFailure(readSse(broken(), { requestId: 'req_cut' }));
    expect(seen).toEqual([{ data: '1' }]);
    expect(error).toBeInstanceOf(StreamIncompleteError);
    expect(error.code).toBe('stream_incomplete');
    expect(error.message).toContain('UND_ERR_SOCKET');
    expect(error.requestId).toBe('req_cut');
  });

  it('gives a generic message when an error event carries no error object', async () => {
    const { error } = await collectFailure(readSse(chunks('event: error\ndata: {"type":"error"}\n\n')));
    expect(error.code).toBe('stream_error');
    expect(error.message).toBe('The platform reported an error mid-stream.');
  });
});

describe('HttpClient.stream', () => {
  let server: ScriptedServer;
  let client: HttpClient;
  const api = () =>
    client.api({
      credentials: new StaticCredentials([{ kind: 'api_key', value: 'sk-stream-12345678', source: 'env' }]),
      signal: new AbortController().signal,
      log: createLogger('silent'),
    });

  /** Writes the frames one by one with a short pause, then either ends or cuts the connection. */
  const sse =
    (frames: string[], end: 'end' | 'cut' = 'end'): Handler =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_stream' });
      let i = 0;
      const next = () => {
        if (i < frames.length) {
          res.write(frames[i++]);
          setTimeout(next, 5);
        } else if (end === 'cut') res.socket?.destroy();
        else res.end();
      };
      next();
    };

  beforeAll(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    server.requests.length = 0;
    await client.close();
  });
  afterAll(async () => {
    await server.close();
  });

  const fresh = () => {
    client = new HttpClient({
      baseUrl: server.baseUrl,
      timeoutMs: 5_000,
      userAgent: 't',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
  };

  it('streams events from a real server and asks for text/event-stream', async () => {
    fresh();
    server.script(sse(['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n']));
    const res = await api().stream({
      method: 'POST',
      path: '/api/v1/chat/completions',
      body: { stream: true },
    });
    expect(res.status).toBe(200);
    expect(res.requestId).toBe('req_stream');
    expect(await collect(res.batches)).toEqual([{ data: '{"n":1}' }, { data: '{"n":2}' }]);
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ stream: true });
  });

  it('fails with stream_incomplete when the server ends the response without [DONE]', async () => {
    fresh();
    server.script(sse(['data: {"n":1}\n\n']));
    const res = await api().stream({ method: 'POST', path: '/api/v1/chat/completions', body: {} });
    const { seen, error } = await collectFailure(res.batches);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(StreamIncompleteError);
    expect(error.code).toBe('stream_incomplete');
    expect(error.requestId).toBe('req_stream');
  });

  it('fails, never silently succeeds, when the connection is cut mid-stream', async () => {
    fresh();
    server.script(sse(['data: {"n":1}\n\n', 'data: {"n":2}\n\n'], 'cut'));
    const res = await api().stream({ method: 'POST', path: '/api/v1/chat/completions', body: {} });
    const { seen, error } = await collectFailure(res.batches);
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(StreamIncompleteError);
    expect(error.requestId).toBe('req_stream');
  });

  it('throws AbortedError when the caller aborts while the stream is open', async () => {
    fresh();
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
    });
    const controller = new AbortController();
    const res = await client
      .api({
        credentials: new StaticCredentials([{ kind: 'api_key', value: 'sk-stream-12345678', source: 'env' }]),
        signal: controller.signal,
        log: createLogger('silent'),
      })
      .stream({ method: 'POST', path: '/api/v1/chat/completions', body: {} });
    const seen: SseEvent[] = [];
    const error = await (async () => {
      try {
        for await (const batch of res.batches) {
          seen.push(...batch.events);
          controller.abort();
        }
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(seen).toEqual([{ data: '{"n":1}' }]);
    expect(error).toBeInstanceOf(AbortedError);
  });

  it('throws the typed API error when the stream is refused before it starts', async () => {
    fresh();
    server.script(
      json(400, { error: { message: 'stream_options needs stream', code: 'invalid_parameter_value' } }),
    );
    await expect(
      api().stream({ method: 'POST', path: '/api/v1/chat/completions', body: {} }),
    ).rejects.toMatchObject({
      code: 'bad_request',
      upstreamCode: 'invalid_parameter_value',
    });
  });

  it('reports a mid-stream error chunk from a real server as stream_error', async () => {
    fresh();
    const chunk = {
      choices: [{ finish_reason: 'error', delta: {} }],
      error: { status: 500, message: 'boom', code: 'server_error' },
    };
    server.script(
      sse([
        'data: {"choices":[{"delta":{"content":"a"}}]}\n\n',
        `data: ${JSON.stringify(chunk)}\n\n`,
        'data: [DONE]\n\n',
      ]),
    );
    const res = await api().stream({ method: 'POST', path: '/api/v1/chat/completions', body: {} });
    const { error } = await collectFailure(res.batches);
    expect(error).toMatchObject({
      code: 'stream_error',
      status: 500,
      requestId: 'req_stream',
      upstreamCode: 'server_error',
    });
  });
});
