import { describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../src/sandbox/index.js';
import { chatBody, post, useSandbox } from './helpers.js';

describe('sandbox auth', () => {
  const sandbox = useSandbox();

  it('answers 401 missing_api_key in the common envelope when no key is sent', async () => {
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'authentication_error', code: 'missing_api_key' },
    });
  });

  it('answers 401 invalid_api_key for an unknown key', async () => {
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      authorization: 'Bearer sk-nope',
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
  });

  it('accepts the key in x-api-key as well as in Authorization', async () => {
    const res = await post(sandbox(), '/api/v1/chat/completions', chatBody(), {
      'x-api-key': SANDBOX_DEMO_KEY,
    });
    expect(res.status).toBe(200);
  });

  it('uses the messages envelope for auth errors on the messages route', async () => {
    const res = await post(
      sandbox(),
      '/api/v1/messages',
      { model: 'openai/gpt-sandbox', max_tokens: 100 },
      {},
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: expect.any(String) },
    });
  });

  it('gives every reply an increasing X-Request-ID, errors and unknown routes included', async () => {
    const a = await fetch(`${sandbox().url}/api/v1/models`);
    const b = await fetch(`${sandbox().url}/no/such/route`);
    const idA = a.headers.get('x-request-id');
    const idB = b.headers.get('x-request-id');
    expect(idA).toMatch(/^req_\d{6}$/);
    expect(idB).toMatch(/^req_\d{6}$/);
    expect(Number(idB!.slice(4))).toBe(Number(idA!.slice(4)) + 1);
    expect(b.status).toBe(404);
    expect((await b.json()).error.type).toBe('not_found_error');
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const res = await post(sandbox(), '/api/v1/chat/completions', '{not json');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_json');
  });
});
