import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';
import {
  clearCorruptions,
  corrupt,
  getJson,
  OTHER_TEE_MODEL,
  setOptions,
  TEE_MODEL,
} from '../../sandbox/tee-helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await clearCorruptions(h.sandbox);
  await setOptions(h.sandbox, { nonceKey: 'nonce', textForm: 'hashes' });
});
afterAll(async () => {
  await h.close();
});

/** The address the sandbox enclave signs with, read from its control route. */
async function sandboxAddress(model = TEE_MODEL): Promise<string> {
  const { body } = await getJson(h.sandbox, '/__sandbox/tee');
  const models = (body as { models: { id: string; signing_address: string }[] }).models;
  return models.find((m) => m.id === model)?.signing_address ?? '';
}

const attestations = () => h.sandbox.requests.filter((r) => r.path === '/api/v1/tee/attestation');
const statusOf = (result: Parameters<typeof out>[0], id: string) =>
  (out(result).checks as { id: string; status: string }[]).find((c) => c.id === id)?.status;

/** Every check that needs no vendor service, and so must pass on a good attestation. */
const OFFLINE_CHECKS = [
  'nonce_echo',
  'quote_format',
  'report_data_binding',
  'td_not_debug',
  'quote_signature',
  'qe_report_signature',
  'pck_chain',
  'qe_report_binding',
  'gpu_payload_format',
  'gpu_nonce',
  'gpu_cert_chain',
  'gpu_evidence_signature',
];
/** Checks that need Intel's or NVIDIA's online services, or published values: never claimed. */
const NOT_CHECKED = [
  'measurements',
  'tcb_status',
  'qe_identity',
  'intel_revocation',
  'gpu_measurements',
  'gpu_revocation',
  'online_appraisal',
];

describe('tee_attestation against the sandbox', () => {
  it('attests the first enclave model with a fresh nonce and passes every offline check', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('tee_attestation', {});
    expect(result.isError).toBeFalsy();
    const r = out(result);
    expect(r.model).toBe(TEE_MODEL);
    expect(r.verified).toBe(true);
    expect(r.failed).toEqual([]);
    expect(r.signing_address.toLowerCase()).toBe((await sandboxAddress()).toLowerCase());
    for (const id of OFFLINE_CHECKS) expect(statusOf(result, id), id).toBe('passed');
    for (const id of NOT_CHECKED) expect(statusOf(result, id), id).toBe('not_checked');
    for (const check of r.checks as { status: string; reason: string }[])
      expect(check.reason.length).toBeGreaterThan(10);
    expect(Object.keys(r.measurements)).toEqual(
      expect.arrayContaining(['mrtd', 'rtmr0', 'rtmr1', 'rtmr2', 'rtmr3']),
    );
    expect(r.measurements.mrtd).toMatch(/^[0-9a-f]{96}$/);
    // The request: the catalog for the default model, then the attestation with our nonce.
    expect(h.sandbox.requests[0]?.path).toBe('/api/v1/models');
    const sent = attestations()[0];
    expect(sent?.method).toBe('GET');
    expect(sent?.query.model).toBe(TEE_MODEL);
    expect(sent?.query.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(r.nonce).toBe(sent?.query.nonce);
    // Said plainly: the sandbox's roots were trusted because this is the sandbox.
    expect(r.trusted_roots).toEqual(
      expect.arrayContaining([
        'Intel SGX Root CA',
        'NVIDIA Device Identity CA',
        expect.stringContaining('sandbox only'),
      ]),
    );
    expect(r.note).toMatch(/sandbox/);
    const text = textOf(result);
    expect(text).toContain('attestation verified offline');
    expect(text).toContain('not checked online_appraisal');
    expect(text).toContain('mrtd=');
  });

  it('sends a new nonce on every call', async () => {
    h.sandbox.clearRequests();
    await h.call('tee_attestation', { model: OTHER_TEE_MODEL });
    await h.call('tee_attestation', { model: OTHER_TEE_MODEL });
    const nonces = attestations().map((r) => r.query.nonce);
    expect(nonces).toHaveLength(2);
    expect(nonces[0]).not.toBe(nonces[1]);
    expect(attestations().every((r) => r.query.model === OTHER_TEE_MODEL)).toBe(true);
  });

  it('accepts the nonce echoed as request_nonce', async () => {
    await setOptions(h.sandbox, { nonceKey: 'request_nonce' });
    const result = await h.call('tee_attestation', { model: TEE_MODEL });
    expect(out(result).verified).toBe(true);
    expect(statusOf(result, 'nonce_echo')).toBe('passed');
  });

  const corruptions: [part: string, check: string][] = [
    ['nonce_echo', 'nonce_echo'],
    ['report_data', 'report_data_binding'],
    ['td_debug', 'td_not_debug'],
    ['quote_signature', 'quote_signature'],
    ['qe_report_signature', 'qe_report_signature'],
    ['qe_report_binding', 'qe_report_binding'],
    ['pck_chain', 'pck_chain'],
    ['quote_format', 'quote_format'],
    ['gpu_nonce', 'gpu_nonce'],
    ['gpu_chain', 'gpu_cert_chain'],
    ['gpu_evidence_signature', 'gpu_evidence_signature'],
  ];
  it.each(corruptions)('fails on a corrupted %s, naming the %s check', async (part, check) => {
    await corrupt(h.sandbox, { part, model: TEE_MODEL });
    const result = await h.call('tee_attestation', { model: TEE_MODEL });
    expect(result.isError).toBeFalsy();
    const r = out(result);
    expect(r.verified).toBe(false);
    expect(r.failed).toEqual([check]);
    expect(statusOf(result, check)).toBe('failed');
    expect(textOf(result)).toContain(`attestation NOT verified (${check})`);
    expect(textOf(result)).toContain(`FAILED ${check}: `);
  });

  it('forgets the attested address of a model whose attestation then fails', async () => {
    const good = out(await h.call('tee_attestation', { model: TEE_MODEL }));
    expect(good.verified).toBe(true);
    await corrupt(h.sandbox, { part: 'report_data', model: TEE_MODEL });
    expect(out(await h.call('tee_attestation', { model: TEE_MODEL })).verified).toBe(false);
    // tee_verify now has no kept address: it attests afresh before comparing any signer.
    h.sandbox.clearRequests();
    const chat = out(await h.call('chat', { model: TEE_MODEL, prompt: 'hi', stream: false }));
    await h.call('tee_verify', { request_id: chat.request_id, model: TEE_MODEL });
    expect(attestations()).toHaveLength(1);
  });

  it('refuses a model outside the enclave before sending anything', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('tee_attestation', { model: 'openai/gpt-sandbox' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('invalid_input');
    expect(textOf(result)).toMatch(/model.*TEE\//s);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("reports the platform's refusal of an enclave model it does not know", async () => {
    const result = await h.call('tee_attestation', { model: 'TEE/no-such-model' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/HTTP 4\d\d/);
  });
});

describe('tee_attestation against a platform', () => {
  it("trusts only the vendors' pinned roots, so sandbox evidence does not verify", async () => {
    const platform = await startHarness({
      sharedSandbox: h.sandbox,
      target: { kind: 'platform', baseUrl: h.sandbox.url },
    });
    try {
      const result = await platform.call('tee_attestation', { model: TEE_MODEL });
      const r = out(result);
      expect(r.verified).toBe(false);
      expect(r.failed).toEqual(expect.arrayContaining(['pck_chain', 'gpu_cert_chain']));
      expect(statusOf(result, 'report_data_binding')).toBe('passed');
      expect(r.trusted_roots).toEqual(['Intel SGX Root CA', 'NVIDIA Device Identity CA']);
      expect(r.note).toBeUndefined();
    } finally {
      await platform.close();
    }
  });
});
