import { afterEach, describe, expect, it } from 'vitest';
import { chatBody, DEMO_AUTH, jsonFrames, post, readFrames, useSandbox } from './helpers.js';

describe('sandbox fault injection', () => {
  const sandbox = useSandbox();
  afterEach(() => {
    sandbox().faults.clear();
  });

  it('delays the reply by latencyMs', async () => {
    sandbox().faults.add({ latencyMs: 150 });
    const started = Date.now();
    const res = await fetch(`${sandbox().url}/api/v1/models`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers the injected status with Retry-After and a request id, for `times` requests only', async () => {
    sandbox().faults.add({ status: 503, retryAfterSeconds: 2, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await post(sandbox(), '/api/v1/chat/completions', chatBody());
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect((await res.json()).error).toMatchObject({
        type: 'service_unavailable',
        code: 'service_unavailable',
      });
    }
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody())).status).toBe(200);
  });

  it('renders an injected error in the envelope of the route', async () => {
    sandbox().faults.add({ status: 429, match: { path: '/api/v1/messages' } });
    const res = await post(sandbox(), '/api/v1/messages', {});
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
    });
  });

  it('matches faults by method and by path prefix', async () => {
    sandbox().faults.add({ status: 500, match: { method: 'POST', path: '/api/v1/chat/*' } });
    expect((await fetch(`${sandbox().url}/api/v1/models`)).status).toBe(200);
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody())).status).toBe(500);
  });

  it('runs the route and then cuts the connection when dropReply is set', async () => {
    sandbox().faults.add({ dropReply: true, match: { method: 'POST', path: '/api/v1/chat/completions' } });
    sandbox().clearRequests();
    await expect(post(sandbox(), '/api/v1/chat/completions', chatBody())).rejects.toThrow();
    // The request was served (a chat is charged), only its reply was lost.
    expect(sandbox().requests.at(-1)).toMatchObject({ path: '/api/v1/chat/completions', status: 200 });
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody())).status).toBe(200);
  });

  it('replies 200 with a body that is not JSON when malformedBody is set', async () => {
    sandbox().faults.add({ malformedBody: true });
    const res = await fetch(`${sandbox().url}/api/v1/models`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    await expect(res.json()).rejects.toThrow();
  });

  it('sends a broken SSE frame to a streaming request when malformedBody is set', async () => {
    sandbox().faults.add({ malformedBody: true });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody({ stream: true }));
    const frames = await readFrames(res);
    expect(() => JSON.parse(frames[0]!.data)).toThrow();
  });

  it('drops the connection after cutStreamAfterEvents frames, with no [DONE]', async () => {
    sandbox().faults.add({ cutStreamAfterEvents: 3 });
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody({ stream: true }));
    expect(res.status).toBe(200);
    const received: string[] = [];
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for await (const chunk of res.body!) received.push(decoder.decode(chunk, { stream: true }));
      })(),
    ).rejects.toThrow();
    const text = received.join('');
    expect(text.split('\n\n').filter((f) => f.startsWith('data: '))).toHaveLength(3);
    expect(text).not.toContain('[DONE]');
  });

  it('keeps stream faults for streaming requests, leaving plain requests alone', async () => {
    sandbox().faults.add({ cutStreamAfterEvents: 0 });
    expect((await post(sandbox(), '/api/v1/chat/completions', chatBody())).status).toBe(200);
    expect(sandbox().faults.list()).toHaveLength(1);
  });

  it('emits a mid-stream error chunk and [DONE] after streamErrorAfterEvents frames', async () => {
    sandbox().faults.add({ streamErrorAfterEvents: 2, status: 502, message: 'provider fell over' });
    const frames = await readFrames(
      await post(sandbox(), '/api/v1/chat/completions', chatBody({ stream: true })),
    );
    expect(frames).toHaveLength(4);
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const error = jsonFrames(frames).at(-1)!;
    expect(error.choices).toEqual([{ index: 0, delta: {}, finish_reason: 'error' }]);
    expect(error.error).toEqual({ status: 502, message: 'provider fell over', code: 'server_error' });
  });

  it('can be driven over HTTP: POST and DELETE /__sandbox/faults', async () => {
    const add = await post(sandbox(), '/__sandbox/faults', { status: 500, times: 5 });
    expect(add.status).toBe(201);
    expect((await add.json()).id).toMatch(/^fault_/);
    expect((await fetch(`${sandbox().url}/api/v1/models`)).status).toBe(500);
    const cleared = await fetch(`${sandbox().url}/__sandbox/faults`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await fetch(`${sandbox().url}/api/v1/models`)).status).toBe(200);
  });

  it('rejects an invalid fault spec with 400', async () => {
    const res = await post(sandbox(), '/__sandbox/faults', { status: 'boom' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_parameter_value');
  });

  it('uses a verbatim body and extra headers when the fault gives them', async () => {
    sandbox().faults.add({
      status: 400,
      body: { error: 'legacy failure', status: 400 },
      headers: { 'x-extra': '1' },
    });
    const res = await fetch(`${sandbox().url}/api/v1/models`, { headers: DEMO_AUTH });
    expect(await res.json()).toEqual({ error: 'legacy failure', status: 400 });
    expect(res.headers.get('x-extra')).toBe('1');
  });
});
