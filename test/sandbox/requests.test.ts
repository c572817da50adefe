import { describe, expect, it, vi } from 'vitest';
import { SANDBOX_DEMO_KEY, startSandbox } from '../../src/sandbox/index.js';
import { chatBody, post, useSandbox } from './helpers.js';

describe('sandbox request log and control routes', () => {
  const sandbox = useSandbox();

  it('records method, path, query, lowercased headers, body text and JSON, and status', async () => {
    sandbox().clearRequests();
    await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      'X-API-Key': SANDBOX_DEMO_KEY,
      'X-Title': 'tests',
    });
    await fetch(`${sandbox().url}/api/v1/models?detailed=true&sort=mostused`);
    const [chat, models] = sandbox().requests;
    expect(chat).toMatchObject({
      method: 'POST',
      path: '/api/v1/chat/completions',
      headers: { 'x-api-key': SANDBOX_DEMO_KEY, 'x-title': 'tests', 'content-type': 'application/json' },
      json: chatBody(),
      status: 200,
      id: expect.stringMatching(/^req_/),
    });
    expect(JSON.parse(chat!.body)).toEqual(chatBody());
    expect(models).toMatchObject({ method: 'GET', query: { detailed: 'true', sort: 'mostused' }, body: '' });
  });

  it('keeps control routes out of the log and serves the log over HTTP', async () => {
    sandbox().clearRequests();
    await fetch(`${sandbox().url}/api/v1/models`);
    const res = await fetch(`${sandbox().url}/__sandbox/requests`);
    const { data } = await res.json();
    expect(data.map((r: { path: string }) => r.path)).toEqual(['/api/v1/models']);
    await fetch(`${sandbox().url}/__sandbox/requests`, { method: 'DELETE' });
    expect(sandbox().requests).toHaveLength(0);
  });

  it('creates keys over HTTP for a sandbox running in another process', async () => {
    const res = await post(sandbox(), '/__sandbox/keys', { balance: 0.5, dailyRequestLimit: 3 }, {});
    const { key } = await res.json();
    expect(key).toMatch(/^sk-orbit-sbx-/);
    expect(sandbox().state.balance(key)).toBe(0.5);
  });

  it('listens on a given port, writes nothing to stdout, and closes with a stream open', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const probe = await startSandbox();
    const port = probe.port;
    await probe.close();
    const sb = await startSandbox({ port, quiet: false, log: () => {}, timing: { streamChunkDelayMs: 200 } });
    expect(sb.url).toBe(`http://127.0.0.1:${port}`);
    const res = await post(sb, '/api/v1/chat/completions', chatBody({ stream: true }));
    const reading = res.text().catch(() => 'aborted');
    await sb.close();
    await reading;
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });
});
