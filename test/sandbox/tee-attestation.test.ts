import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { type CheckId, parseGpuPayload, parseTdxQuote, verifyAttestation } from '../../src/tee/index.js';
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

const statuses = (verdict: ReturnType<typeof verifyAttestation>) =>
  Object.fromEntries(verdict.checks.map((check) => [check.id, check.status]));

describe('sandbox enclave attestation', () => {
  const sandbox = useSandbox();
  afterEach(() => clearCorruptions(sandbox()));

  it('answers without a key with the signing address, the echoed nonce, a TDX quote and GPU evidence', async () => {
    const reply = await attest(sandbox());
    expect(reply).toEqual({
      model: TEE_MODEL,
      signing_address: sandbox().tee.signingAddress(TEE_MODEL),
      signing_algo: 'ecdsa',
      nonce: NONCE,
      intel_quote: expect.stringMatching(/^[0-9a-f]+$/),
      nvidia_payload: expect.any(String),
    });
    expect(reply.signing_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const quote = parseTdxQuote(Buffer.from(String(reply.intel_quote), 'hex'));
    expect(quote.header).toMatchObject({ version: 4, teeType: 0x81, attestationKeyType: 2 });
    const address = String(reply.signing_address).slice(2).toLowerCase();
    expect(Buffer.from(quote.body.reportData).toString('hex')).toBe(`${address}${'00'.repeat(12)}${NONCE}`);
    const gpu = parseGpuPayload(reply.nvidia_payload);
    expect(gpu).toMatchObject({ nonce: NONCE, arch: 'HOPPER' });
    expect(gpu.evidence).toHaveLength(1);
  });

  it('passes every offline check once the sandbox roots are trusted, and names what it could not check', async () => {
    const verdict = verifyAttestation(await attest(sandbox()), {
      nonce: NONCE,
      roots: await sandboxTrust(sandbox()),
    });
    expect(verdict.failed).toEqual([]);
    expect(verdict.verified).toBe(true);
    expect(statuses(verdict)).toEqual({
      nonce_echo: 'passed',
      quote_format: 'passed',
      report_data_binding: 'passed',
      td_not_debug: 'passed',
      quote_signature: 'passed',
      qe_report_signature: 'passed',
      pck_chain: 'passed',
      qe_report_binding: 'passed',
      measurements: 'not_checked',
      tcb_status: 'not_checked',
      qe_identity: 'not_checked',
      intel_revocation: 'not_checked',
      gpu_payload_format: 'passed',
      gpu_nonce: 'passed',
      gpu_cert_chain: 'passed',
      gpu_evidence_signature: 'passed',
      gpu_measurements: 'not_checked',
      gpu_revocation: 'not_checked',
      online_appraisal: 'not_checked',
    });
    expect(verdict.checks.find((c) => c.id === 'pck_chain')?.reason).toContain('(sandbox only)');
    expect(verdict.trustedRoots.intel).toEqual([
      'Intel SGX Root CA',
      'Orbit Sandbox SGX Root CA (sandbox only)',
    ]);
  });

  it('fails both chains against the real vendor roots alone: the sandbox is not Intel or NVIDIA', async () => {
    const verdict = verifyAttestation(await attest(sandbox()), { nonce: NONCE });
    expect(verdict.failed).toEqual(['pck_chain', 'gpu_cert_chain']);
    expect(verdict.verified).toBe(false);
  });

  it('fails the nonce checks when the client compares against another nonce (a replayed reply)', async () => {
    const verdict = verifyAttestation(await attest(sandbox()), {
      nonce: '11'.repeat(32),
      roots: await sandboxTrust(sandbox()),
    });
    expect(verdict.failed).toEqual(['nonce_echo', 'report_data_binding', 'gpu_nonce']);
  });

  it('reports the measurements, and compares them when reference values are given', async () => {
    const reply = await attest(sandbox());
    const roots = await sandboxTrust(sandbox());
    const { measurements } = verifyAttestation(reply, { nonce: NONCE, roots });
    expect(measurements?.mrtd).toMatch(/^[0-9a-f]{96}$/);
    const other = await attest(sandbox(), OTHER_TEE_MODEL);
    const otherMeasurements = verifyAttestation(other, { nonce: NONCE, roots }).measurements;
    expect(otherMeasurements?.mrtd).toBe(measurements?.mrtd);
    expect(otherMeasurements?.rtmr3).not.toBe(measurements?.rtmr3);
    const expected = { mrtd: measurements?.mrtd, rtmr3: measurements?.rtmr3 };
    expect(
      statuses(verifyAttestation(reply, { nonce: NONCE, roots, expectedMeasurements: expected })),
    ).toMatchObject({
      measurements: 'passed',
    });
    const wrong = { ...expected, rtmr3: otherMeasurements?.rtmr3 };
    expect(verifyAttestation(reply, { nonce: NONCE, roots, expectedMeasurements: wrong }).failed).toEqual([
      'measurements',
    ]);
  });

  const corruptions: [string, CheckId][] = [
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
  it.each(corruptions)('corruption %s fails exactly the %s check, once', async (part, check) => {
    const roots = await sandboxTrust(sandbox());
    await corrupt(sandbox(), { part });
    const spoiled = verifyAttestation(await attest(sandbox()), { nonce: NONCE, roots });
    expect(spoiled.failed).toEqual([check]);
    expect(spoiled.verified).toBe(false);
    expect(verifyAttestation(await attest(sandbox()), { nonce: NONCE, roots }).verified).toBe(true);
  });

  it('skips the quote checks, rather than failing them, when the quote does not parse', async () => {
    await corrupt(sandbox(), { part: 'quote_format' });
    const verdict = verifyAttestation(await attest(sandbox()), {
      nonce: NONCE,
      roots: await sandboxTrust(sandbox()),
    });
    expect(verdict.checks.find((c) => c.id === 'quote_format')?.reason).toMatch(/ends inside/);
    expect(statuses(verdict)).toMatchObject({ quote_signature: 'not_checked', pck_chain: 'not_checked' });
  });

  it('applies a corruption to its model only, for as many attestations as asked', async () => {
    const roots = await sandboxTrust(sandbox());
    await corrupt(sandbox(), { part: 'report_data', model: OTHER_TEE_MODEL, times: 2 });
    expect(verifyAttestation(await attest(sandbox()), { nonce: NONCE, roots }).verified).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect(
        verifyAttestation(await attest(sandbox(), OTHER_TEE_MODEL), { nonce: NONCE, roots }).failed,
      ).toEqual(['report_data_binding']);
    }
    expect(
      verifyAttestation(await attest(sandbox(), OTHER_TEE_MODEL), { nonce: NONCE, roots }).verified,
    ).toBe(true);
  });

  it('echoes the nonce as request_nonce when told to, which the verifier accepts', async () => {
    expect((await setOptions(sandbox(), { nonceKey: 'request_nonce' })).status).toBe(200);
    try {
      const reply = await attest(sandbox());
      expect(reply).toMatchObject({ request_nonce: NONCE });
      expect(reply).not.toHaveProperty('nonce');
      expect(verifyAttestation(reply, { nonce: NONCE, roots: await sandboxTrust(sandbox()) }).verified).toBe(
        true,
      );
    } finally {
      await setOptions(sandbox(), { nonceKey: 'nonce' });
    }
  });

  it('gives each enclave model its own signing address', async () => {
    const [a, b] = await Promise.all([attest(sandbox()), attest(sandbox(), OTHER_TEE_MODEL)]);
    expect(a.signing_address).not.toBe(b.signing_address);
  });

  it('picks a nonce itself when none is sent, and echoes it', async () => {
    const { status, body } = await getJson(sandbox(), `/api/v1/tee/attestation?model=${TEE_MODEL}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ nonce: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it.each([
    ['', 400, 'missing_required_parameter', 'model'],
    ['?model=nobody/nothing', 400, 'model_not_found', 'model'],
    ['?model=openai/gpt-sandbox', 400, 'invalid_parameter_value', 'model'],
    [`?model=${TEE_MODEL}&nonce=abc`, 400, 'invalid_parameter_value', 'nonce'],
    [
      `?model=${TEE_MODEL}&nonce=${NONCE}&signing_algo=ed25519`,
      400,
      'invalid_parameter_value',
      'signing_algo',
    ],
  ])('rejects attestation%s with %i %s', async (query, status, code, param) => {
    const res = await fetch(`${sandbox().url}/api/v1/tee/attestation${query}`, { headers: DEMO_AUTH });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', code, param },
    });
  });
});

describe('sandbox enclave control', () => {
  const sandbox = useSandbox();

  it('lists roots, enclave models with their addresses, options, parts and pending corruptions', async () => {
    await corrupt(sandbox(), { part: 'gpu_chain', model: TEE_MODEL, times: 3 });
    const { status, body } = await getJson(sandbox(), '/__sandbox/tee');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      roots: {
        intel: [
          {
            name: 'Orbit Sandbox SGX Root CA (sandbox only)',
            pem: expect.stringContaining('BEGIN CERTIFICATE'),
          },
        ],
        nvidia: [{ name: 'Orbit Sandbox Device Identity CA (sandbox only)', pem: expect.any(String) }],
      },
      models: [
        { id: TEE_MODEL, signing_address: sandbox().tee.signingAddress(TEE_MODEL) },
        { id: OTHER_TEE_MODEL, signing_address: sandbox().tee.signingAddress(OTHER_TEE_MODEL) },
      ],
      options: { textForm: 'hashes', nonceKey: 'nonce' },
      parts: { attestation: expect.arrayContaining(['pck_chain']), reply: ['signing_key', 'response_bytes'] },
      corruptions: [{ id: expect.any(String), part: 'gpu_chain', model: TEE_MODEL, remaining: 3 }],
    });
    const cleared = await fetch(`${sandbox().url}/__sandbox/tee/corruptions`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await getJson(sandbox(), '/__sandbox/tee/corruptions')).body).toEqual({ data: [] });
  });

  it('rejects an unknown part and unknown options with 400', async () => {
    const res = await fetch(`${sandbox().url}/__sandbox/tee/corruptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ part: 'everything' }),
    });
    expect(res.status).toBe(400);
    expect((await setOptions(sandbox(), { textForm: 'poem' })).status).toBe(400);
  });

  it('makes the same roots and addresses for the same clock, so runs are reproducible', async () => {
    const now = () => Date.UTC(2026, 0, 1);
    const [a, b] = await Promise.all([startSandbox({ now }), startSandbox({ now })]);
    try {
      expect(a.tee.roots()).toEqual(b.tee.roots());
      expect(a.tee.signingAddress(TEE_MODEL)).toBe(b.tee.signingAddress(TEE_MODEL));
      expect(a.tee.roots()).not.toEqual(sandbox().tee.roots());
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
