import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { verifyAttestation, verifyReplySignature } from '../../src/tee/index.js';
import { DEMO_AUTH, useSandbox } from './helpers.js';
import {
  attest,
  clearCorruptions,
  corrupt,
  getJson,
  NONCE,
  OTHER_TEE_MODEL,
  sandboxTrust,
  setOptions,
  TEE_MODEL,
} from './tee-helpers.js';

interface Exchange {
  requestId: string;
  bodyId: string | undefined;
  request: string;
  response: Uint8Array;
}

/** Sends exact bytes and keeps the exact bytes received, as a verifying client must. */
async function exchange(sb: Sandbox, path: string, body: Record<string, unknown>): Promise<Exchange> {
  const request = JSON.stringify(body);
  const res = await fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...DEMO_AUTH },
    body: request,
  });
  expect(res.status).toBe(200);
  const response = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(response);
  const bodyId = text.match(/"id":"([^"]+)"/)?.[1];
  return { requestId: res.headers.get('x-request-id') ?? '', bodyId, request, response };
}

async function signatureOf(sb: Sandbox, id: string, model = TEE_MODEL) {
  return getJson(
    sb,
    `/api/v1/tee/signature/${encodeURIComponent(id)}?model=${encodeURIComponent(model)}&signing_algo=ecdsa`,
  );
}

const chat = (extra: Record<string, unknown> = {}) => ({
  model: TEE_MODEL,
  messages: [{ role: 'user', content: 'Say something private' }],
  ...extra,
});

describe('sandbox enclave reply signatures', () => {
  const sandbox = useSandbox();
  afterEach(() => clearCorruptions(sandbox()));

  /** The attested address, verified first, as a client must before trusting a signer. */
  async function attestedAddress(model = TEE_MODEL): Promise<string> {
    const verdict = verifyAttestation(await attest(sandbox(), model), {
      nonce: NONCE,
      roots: await sandboxTrust(sandbox()),
    });
    expect(verdict.verified).toBe(true);
    return verdict.signingAddress ?? '';
  }

  async function verify(ex: Exchange, id = ex.requestId, model = TEE_MODEL) {
    const { status, body } = await signatureOf(sandbox(), id, model);
    expect(status).toBe(200);
    return verifyReplySignature({
      reply: body,
      attestedAddress: await attestedAddress(model),
      model,
      requestBody: ex.request,
      responseBody: ex.response,
    });
  }

  it('signs a non-streamed chat over sha256 of the exact request and response bytes', async () => {
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
    const { body } = await signatureOf(sandbox(), ex.requestId);
    expect(body).toEqual({
      text: expect.stringMatching(/^[0-9a-f]{64}:[0-9a-f]{64}$/),
      signature: expect.stringMatching(/^0x[0-9a-f]{128}(1b|1c)$/),
      signing_address: sandbox().tee.signingAddress(TEE_MODEL),
      signing_algo: 'ecdsa',
    });
    const verdict = await verify(ex);
    expect(verdict.failed).toEqual([]);
    expect(verdict.verified).toBe(true);
    expect(verdict.signer).toBe(sandbox().tee.signingAddress(TEE_MODEL));
  });

  it('signs a streamed chat over the concatenated SSE bytes as sent', async () => {
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat({ stream: true }));
    expect(new TextDecoder().decode(ex.response)).toContain('data: [DONE]');
    const verdict = await verify(ex);
    expect(verdict.checks.map((c) => [c.id, c.status])).toEqual([
      ['signature_text_format', 'passed'],
      ['signature_recovery', 'passed'],
      ['request_hash', 'passed'],
      ['response_hash', 'passed'],
    ]);
  });

  it('files the signature under the body id as well as the X-Request-ID', async () => {
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat({ stream: true }));
    expect(ex.bodyId).toMatch(/^chatcmpl-/);
    expect((await verify(ex, ex.bodyId)).verified).toBe(true);
  });

  it.each([
    ['/api/v1/messages', { max_tokens: 256 }],
    ['/api/v1/messages', { max_tokens: 256, stream: true }],
    ['/api/v1/responses', { input: 'Say something private', messages: undefined }],
    ['/api/v1/responses', { input: 'Say something private', messages: undefined, stream: true }],
    ['/api/v1/completions', { prompt: 'Say something private', messages: undefined }],
  ])('signs %s replies %j of enclave models too', async (path, extra) => {
    const ex = await exchange(sandbox(), path, chat(extra));
    expect((await verify(ex)).failed).toEqual([]);
    expect((await verify(ex, ex.bodyId)).verified).toBe(true);
  });

  it('signs a reasoning model streaming its reasoning, with its own key', async () => {
    const ex = await exchange(
      sandbox(),
      '/api/v1/chat/completions',
      chat({ model: OTHER_TEE_MODEL, stream: true }),
    );
    const verdict = await verify(ex, ex.requestId, OTHER_TEE_MODEL);
    expect(verdict.verified).toBe(true);
    expect(verdict.signer).not.toBe(sandbox().tee.signingAddress(TEE_MODEL));
  });

  it('fails the recovery check when the reply is signed by another key', async () => {
    await corrupt(sandbox(), { part: 'signing_key' });
    // A request that fails is not signed, so it leaves the corruption for the next reply.
    const failed = await fetch(`${sandbox().url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...DEMO_AUTH },
      body: JSON.stringify(chat({ messages: [] })),
    });
    expect(failed.status).toBe(400);
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
    const verdict = await verify(ex);
    expect(verdict.failed).toEqual(['signature_recovery']);
    expect(verdict.checks[1]?.reason).toContain(
      `not the attested ${sandbox().tee.signingAddress(TEE_MODEL)}`,
    );
    expect((await verify(await exchange(sandbox(), '/api/v1/chat/completions', chat()))).verified).toBe(true);
  });

  it.each([false, true])(
    'fails the response hash when the reply is altered in transit (stream: %s)',
    async (stream) => {
      await corrupt(sandbox(), { part: 'response_bytes' });
      const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat({ stream }));
      expect(new TextDecoder().decode(ex.response)).toContain('[altered in transit]');
      const verdict = await verify(ex);
      expect(verdict.failed).toEqual(['response_hash']);
      expect(verdict.verified).toBe(false);
    },
  );

  it('fails the request hash when the client compares other request bytes', async () => {
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
    const verdict = await verify({ ...ex, request: ex.request.replace('private', 'public') });
    expect(verdict.failed).toEqual(['request_hash']);
  });

  it('can spell text as <model>:<req>:<resp>, which binds the model too', async () => {
    await setOptions(sandbox(), { textForm: 'model' });
    try {
      const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
      const { body } = await signatureOf(sandbox(), ex.requestId);
      expect(body).toMatchObject({
        text: expect.stringMatching(/^TEE\/llama-sandbox:[0-9a-f]{64}:[0-9a-f]{64}$/),
      });
      expect((await verify(ex)).verified).toBe(true);
    } finally {
      await setOptions(sandbox(), { textForm: 'hashes' });
    }
  });

  it('has no signature for a failed request, another model, or a model outside the enclave', async () => {
    const bad = await fetch(`${sandbox().url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...DEMO_AUTH },
      body: JSON.stringify(chat({ messages: [] })),
    });
    expect(bad.status).toBe(400);
    const missing = await signatureOf(sandbox(), bad.headers.get('x-request-id') ?? '');
    expect(missing).toEqual({
      status: 404,
      body: {
        error: {
          message: expect.stringContaining('No signature'),
          type: 'not_found_error',
          code: 'not_found',
        },
      },
    });
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
    expect((await signatureOf(sandbox(), ex.requestId, OTHER_TEE_MODEL)).status).toBe(404);
    const plain = await exchange(
      sandbox(),
      '/api/v1/chat/completions',
      chat({ model: 'openai/gpt-sandbox' }),
    );
    expect((await signatureOf(sandbox(), plain.requestId)).status).toBe(404);
    expect((await signatureOf(sandbox(), plain.requestId, 'openai/gpt-sandbox')).status).toBe(400);
  });

  it('requires the model and accepts only ecdsa', async () => {
    const ex = await exchange(sandbox(), '/api/v1/chat/completions', chat());
    const noModel = await getJson(sandbox(), `/api/v1/tee/signature/${ex.requestId}`);
    expect(noModel).toMatchObject({ status: 400, body: { error: { code: 'missing_required_parameter' } } });
    const ed = await getJson(
      sandbox(),
      `/api/v1/tee/signature/${ex.requestId}?model=${TEE_MODEL}&signing_algo=ed25519`,
    );
    expect(ed).toMatchObject({ status: 400, body: { error: { param: 'signing_algo' } } });
  });
});
