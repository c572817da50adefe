import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyReply } from '../../../tools/verify/verify-reply.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import { clearCorruptions, corrupt, getJson, setOptions, TEE_MODEL } from '../../sandbox/tee-helpers.js';
import {
  type CapturedChat,
  capturedChat,
  contextFor,
  type Format,
  type VerifyContext,
} from './verify-helpers.js';

let h: Harness;
let ctx: VerifyContext;
let closeContext: () => Promise<void>;
beforeAll(async () => {
  h = await startHarness();
  // The same platform and key as the harness's server: the same tenant, as `chat` would be.
  ({ ctx, close: closeContext } = contextFor(h.sandbox));
});
afterEach(async () => {
  await clearCorruptions(h.sandbox);
  await setOptions(h.sandbox, { textForm: 'hashes' });
});
afterAll(async () => {
  await closeContext();
  await h.close();
});

async function sandboxAddress(): Promise<string> {
  const { body } = await getJson(h.sandbox, '/__sandbox/tee');
  const models = (body as { models: { id: string; signing_address: string }[] }).models;
  return models.find((m) => m.id === TEE_MODEL)?.signing_address.toLowerCase() ?? '';
}

const paths = () => h.sandbox.requests.map((r) => r.path);
const attestations = () => paths().filter((p) => p === '/api/v1/tee/attestation');
const statusOf = (result: Parameters<typeof out>[0], id: string) =>
  (out(result).checks as { id: string; status: string }[]).find((c) => c.id === id)?.status;

/** A captured enclave chat, verified the way `chat verify: true` will. */
async function chatAndVerify(options: { stream: boolean; format?: Format }) {
  const sent: CapturedChat = await capturedChat(ctx.api, { model: TEE_MODEL, ...options });
  const verdict = await verifyReply(ctx, {
    model: TEE_MODEL,
    requestId: sent.requestId,
    requestBody: sent.captured.request,
    responseBody: sent.captured.response,
  });
  return { sent, verdict };
}

describe('verifyReply (what chat verify: true calls)', () => {
  const cases: [Format, boolean][] = [
    ['chat', false],
    ['chat', true],
    ['messages', false],
    ['messages', true],
    ['responses', false],
    ['responses', true],
  ];
  it.each(cases)(
    'verifies a %s reply (stream: %s) against the exact bytes exchanged',
    async (format, stream) => {
      const { sent, verdict } = await chatAndVerify({ format, stream });
      expect(verdict).toMatchObject({ verified: true, failed: [], requestId: sent.requestId });
      expect(verdict.verdict).toMatch(/^verified: signed in an attested enclave \(key 0x[0-9a-fA-F]{40}\)/);
      // What was hashed is what the sandbox received, byte for byte.
      const seen = h.sandbox.requests.find((r) => r.id === sent.requestId);
      expect(sent.captured.request.toString('utf8')).toBe(seen?.body);
      if (stream) expect(sent.captured.response.toString('utf8')).toContain('data: ');
    },
  );

  it.each([false, true])(
    'fails the hash binding of a reply altered in transit (stream: %s)',
    async (stream) => {
      await corrupt(h.sandbox, { part: 'response_bytes', model: TEE_MODEL });
      const { sent, verdict } = await chatAndVerify({ stream });
      expect(sent.captured.response.toString('utf8')).toContain('[altered in transit]');
      expect(verdict.verified).toBe(false);
      expect(verdict.failed).toEqual(['response_hash']);
      expect(verdict.verdict).toMatch(/^unverified: response_hash failed: /);
    },
  );

  it('fails the request hash when the bytes given are not the bytes sent', async () => {
    const sent = await capturedChat(ctx.api, { model: TEE_MODEL, stream: false });
    // The same JSON, serialized again with other spacing: a verifier must hold the exact bytes.
    const reserialized = Buffer.from(JSON.stringify(sent.body, null, 1));
    const verdict = await verifyReply(ctx, {
      model: TEE_MODEL,
      requestId: sent.requestId,
      requestBody: reserialized,
      responseBody: sent.captured.response,
    });
    expect(verdict.failed).toEqual(['request_hash']);
  });

  it('names signature_recovery when another key signed the reply', async () => {
    await corrupt(h.sandbox, { part: 'signing_key', model: TEE_MODEL });
    const { verdict } = await chatAndVerify({ stream: true });
    expect(verdict.verified).toBe(false);
    expect(verdict.failed).toEqual(['signature_recovery']);
    expect(verdict.verdict).toContain('not the attested');
  });

  it("falls back to the reply's own id, and accepts the <model>:<req>:<resp> text form", async () => {
    await setOptions(h.sandbox, { textForm: 'model' });
    const sent = await capturedChat(ctx.api, { model: TEE_MODEL, stream: true });
    const verdict = await verifyReply(ctx, {
      model: TEE_MODEL,
      requestBody: sent.captured.request,
      responseBody: sent.captured.response,
    });
    expect(verdict.verified).toBe(true);
    expect(verdict.requestId).toMatch(/^chatcmpl-/);
  });

  it('attests once, then uses the address kept for the session', async () => {
    await chatAndVerify({ stream: false });
    h.sandbox.clearRequests();
    await chatAndVerify({ stream: false });
    expect(attestations()).toHaveLength(0);
    expect(paths().filter((p) => p.startsWith('/api/v1/tee/signature/'))).toHaveLength(1);
  });

  it('keeps the attested address per tenant: another key attests for itself', async () => {
    await chatAndVerify({ stream: false });
    const other = contextFor(h.sandbox, h.sandbox.state.createKey({ balance: 10, label: 'other tenant' }));
    try {
      const sent = await capturedChat(other.ctx.api, { model: TEE_MODEL, stream: false });
      h.sandbox.clearRequests();
      const verdict = await verifyReply(other.ctx, {
        model: TEE_MODEL,
        requestId: sent.requestId,
        requestBody: sent.captured.request,
        responseBody: sent.captured.response,
      });
      expect(verdict.verified).toBe(true);
      expect(attestations()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('marks a reply unverified, without throwing, when no signature exists for its id', async () => {
    const sent = await capturedChat(ctx.api, { model: TEE_MODEL, stream: false });
    const verdict = await verifyReply(ctx, {
      model: TEE_MODEL,
      requestId: 'req_not_there',
      requestBody: sent.captured.request,
      responseBody: sent.captured.response,
    });
    expect(verdict).toMatchObject({ verified: false, failed: ['signature_available'] });
    expect(verdict.verdict).toContain('could not be fetched');
  });

  it('says a model outside the enclave cannot be verified, and asks nothing', async () => {
    h.sandbox.clearRequests();
    const verdict = await verifyReply(ctx, {
      model: 'openai/gpt-sandbox',
      requestId: 'req_x',
      requestBody: Buffer.from('{}'),
      responseBody: Buffer.from('{}'),
    });
    expect(verdict).toMatchObject({ verified: false, failed: ['enclave_model'] });
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe('tee_verify', () => {
  it.each([false, true])(
    'binds a plain chat on an enclave model to its bytes, without verify (stream: %s)',
    async (stream) => {
      const chat = out(await h.call('chat', { model: TEE_MODEL, prompt: 'Kept for later', stream }));
      expect(chat.verification).toBeUndefined();
      const result = await h.call('tee_verify', { request_id: chat.request_id });
      expect(out(result)).toMatchObject({
        verified: true,
        bytes_checked: true,
        model: TEE_MODEL,
        failed: [],
      });
      expect(statusOf(result, 'request_hash')).toBe('passed');
      expect(statusOf(result, 'response_hash')).toBe('passed');
    },
  );

  it('checks the signer of a reply this server did not make, and says the bytes were not compared', async () => {
    // Made on the platform directly: this server holds nothing of it.
    const made = await fetch(`${h.sandbox.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.sandbox.demoKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: TEE_MODEL, messages: [{ role: 'user', content: 'A private question' }] }),
    });
    const chat = { request_id: made.headers.get('x-request-id') };
    h.sandbox.clearRequests();
    const result = await h.call('tee_verify', { request_id: chat.request_id, model: TEE_MODEL });
    expect(result.isError).toBeFalsy();
    const r = out(result);
    expect(r).toMatchObject({ verified: true, bytes_checked: false, failed: [], model: TEE_MODEL });
    expect(r.signer.toLowerCase()).toBe(await sandboxAddress());
    expect(r.signing_address.toLowerCase()).toBe(await sandboxAddress());
    expect(statusOf(result, 'attestation')).toBe('passed');
    expect(statusOf(result, 'signature_recovery')).toBe('passed');
    expect(statusOf(result, 'request_hash')).toBe('not_checked');
    expect(statusOf(result, 'response_hash')).toBe('not_checked');
    expect(textOf(result)).toContain('signer verified (bytes not compared)');
    expect(textOf(result)).toContain('does not hold the bytes');
    const asked = h.sandbox.requests.find((req) => req.path.startsWith('/api/v1/tee/signature/'));
    expect(asked?.method).toBe('GET');
    expect(asked?.path).toBe(`/api/v1/tee/signature/${chat.request_id}`);
    expect(asked?.query).toMatchObject({ model: TEE_MODEL, signing_algo: 'ecdsa' });
  });

  it.each([false, true])(
    'binds the signature to the bytes this server captured (stream: %s)',
    async (stream) => {
      const { sent } = await chatAndVerify({ stream });
      // No model given: the kept exchange knows it.
      const result = await h.call('tee_verify', { request_id: sent.requestId });
      const r = out(result);
      expect(r).toMatchObject({ verified: true, bytes_checked: true, model: TEE_MODEL, failed: [] });
      expect(statusOf(result, 'request_hash')).toBe('passed');
      expect(statusOf(result, 'response_hash')).toBe('passed');
      expect(textOf(result)).toContain('exact bytes this server sent and received');
    },
  );

  it.each([false, true])(
    'fails the hash binding of a reply altered in transit (stream: %s)',
    async (stream) => {
      await corrupt(h.sandbox, { part: 'response_bytes', model: TEE_MODEL });
      const { sent } = await chatAndVerify({ stream });
      const result = await h.call('tee_verify', { request_id: sent.requestId });
      expect(out(result)).toMatchObject({ verified: false, bytes_checked: true, failed: ['response_hash'] });
      expect(statusOf(result, 'request_hash')).toBe('passed');
      expect(textOf(result)).toContain('FAILED response_hash');
    },
  );

  it('fails signature_recovery when another key signed, after checking a fresh attestation', async () => {
    expect(out(await h.call('tee_attestation', { model: TEE_MODEL })).verified).toBe(true);
    await corrupt(h.sandbox, { part: 'signing_key', model: TEE_MODEL });
    const chat = out(await h.call('chat', { model: TEE_MODEL, prompt: 'hello', stream: true }));
    h.sandbox.clearRequests();
    const result = await h.call('tee_verify', { request_id: chat.request_id, model: TEE_MODEL });
    expect(out(result)).toMatchObject({ verified: false, failed: ['signature_recovery'] });
    // The kept address did not match, so the enclave was attested again before failing.
    expect(paths()).toEqual([`/api/v1/tee/signature/${chat.request_id}`, '/api/v1/tee/attestation']);
  });

  it('fails the attestation check when the fresh attestation does not verify', async () => {
    await corrupt(h.sandbox, { part: 'report_data', model: TEE_MODEL, times: 2 });
    expect(out(await h.call('tee_attestation', { model: TEE_MODEL })).verified).toBe(false);
    const chat = out(await h.call('chat', { model: TEE_MODEL, prompt: 'hello', stream: false }));
    const result = await h.call('tee_verify', { request_id: chat.request_id, model: TEE_MODEL });
    expect(out(result)).toMatchObject({ verified: false, failed: ['attestation'] });
    expect(statusOf(result, 'signature_recovery')).toBe('not_checked');
    expect(textOf(result)).toContain('report_data_binding');
  });

  it("keeps captured exchanges per tenant: another key's session does not see them", async () => {
    const { sent } = await chatAndVerify({ stream: false });
    const key = h.sandbox.state.createKey({ balance: 10, label: 'stranger' });
    const stranger = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: key, source: 'env' }],
    });
    try {
      const withoutModel = await stranger.call('tee_verify', { request_id: sent.requestId });
      expect(withoutModel.isError).toBe(true);
      expect(textOf(withoutModel)).toContain('invalid_input');
      const withModel = out(
        await stranger.call('tee_verify', { request_id: sent.requestId, model: TEE_MODEL }),
      );
      expect(withModel.bytes_checked).toBe(false);
    } finally {
      await stranger.close();
    }
  });

  it('reports a request id the enclave never signed as not found', async () => {
    const result = await h.call('tee_verify', { request_id: 'req_never_made', model: TEE_MODEL });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('not_found');
  });

  it('asks for the model when this server did not make the request, before sending anything', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('tee_verify', { request_id: 'req_elsewhere' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_input[\s\S]*Pass model/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('refuses a model outside the enclave and an empty request id', async () => {
    const model = await h.call('tee_verify', { request_id: 'req_1', model: 'openai/gpt-sandbox' });
    expect(model.isError).toBe(true);
    expect(textOf(model)).toContain('is not an enclave model');
    const empty = await h.call('tee_verify', { request_id: ' ', model: TEE_MODEL });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('request_id is empty');
  });
});
