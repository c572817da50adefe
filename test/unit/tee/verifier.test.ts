import { describe, expect, it } from 'vitest';
import { derivedKey } from '../../../src/sandbox/tee/keys.js';
import { buildPki } from '../../../src/sandbox/tee/pki.js';
import { buildQuote, measurementsFor, qeReport, qeReportSignature } from '../../../src/sandbox/tee/quote.js';
import {
  parseGpuPayload,
  parseSignedText,
  parseTdxQuote,
  verifyAttestation,
  verifyReplySignature,
} from '../../../src/tee/index.js';
import { checkPck, checkQeBinding, checkQuoteSignature } from '../../../src/tee/quote-checks.js';
import { parseCertificates, verifyChain } from '../../../src/tee/x509.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const pki = buildPki(NOW.getTime());

function quote(version: 4 | 5): Uint8Array {
  const attestationKey = derivedKey('unit-attestation-key', 'P-256');
  const authData = new Uint8Array(32);
  const report = qeReport(attestationKey, authData);
  return buildQuote({
    version,
    reportData: new Uint8Array(64).fill(7),
    measurements: measurementsFor('unit'),
    attestationKey,
    qe: { report, signature: qeReportSignature(report, pki.pckKey), authData, pckChainPem: pki.pckChain },
  });
}

describe('TDX quote v5', () => {
  it('parses the body descriptor and verifies a signature that covers it', () => {
    const parsed = parseTdxQuote(quote(5));
    expect(parsed.header.version).toBe(5);
    expect(parsed.body.kind).toBe('TDX 1.0');
    expect(parsed.signedData.length).toBe(48 + 6 + 584);
    expect(checkQuoteSignature(parsed).status).toBe('passed');
    expect(checkQeBinding(parsed).status).toBe('passed');
    expect(checkPck(parsed, [pki.intelRoot], NOW).map((c) => c.status)).toEqual(['passed', 'passed']);
  });

  it('rejects a v5 body type that is not a TD report', () => {
    const bytes = quote(5);
    bytes[48] = 1; // SGX enclave report
    expect(() => parseTdxQuote(bytes)).toThrow(/not a TD report/);
  });

  it('rejects other versions and TEE types', () => {
    const v3 = quote(4);
    v3[0] = 3;
    expect(() => parseTdxQuote(v3)).toThrow(/version 3/);
    const sgx = quote(4);
    sgx[4] = 0;
    expect(() => parseTdxQuote(sgx)).toThrow(/not TDX/);
  });
});

describe('certificate chains', () => {
  const chain = parseCertificates(pki.pckChain, 'chain');

  it('are well-formed PEM from the sandbox whatever the clock makes their length', () => {
    for (let day = 0; day < 12; day++) {
      const made = buildPki(Date.UTC(2026, 0, 1 + day * 31));
      for (const pem of [made.pckChain, made.roguePckChain, made.deviceChain, made.rogueDeviceChain]) {
        expect(pem).not.toMatch(/\n\n/);
        expect(parseCertificates(pem, 'chain')).toHaveLength(3);
      }
    }
  });

  it('accepts a chain without its root when the last certificate is signed by a trusted root', () => {
    const result = verifyChain(chain.slice(0, 2), [pki.intelRoot], NOW);
    expect(result).toMatchObject({ ok: true, length: 3 });
  });

  it('refuses a chain given out of order, an expired one, and one ending at a look-alike root', () => {
    expect(verifyChain([chain[1]!, chain[0]!], [pki.intelRoot], NOW)).toMatchObject({ ok: false });
    expect(verifyChain(chain, [pki.intelRoot], new Date('2200-01-01'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('valid from'),
    });
    const rogue = parseCertificates(pki.roguePckChain, 'rogue');
    expect(verifyChain(rogue, [pki.intelRoot], NOW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not a trusted root'),
    });
  });
});

describe('attestation replies in other shapes', () => {
  it('fails every required check of an empty reply without throwing', () => {
    const verdict = verifyAttestation({}, { nonce: '00'.repeat(32) });
    expect(verdict.verified).toBe(false);
    expect(verdict.failed).toEqual(['nonce_echo', 'quote_format', 'gpu_payload_format']);
  });

  it('reads the first of all_attestations when the top level carries no quote', () => {
    const verdict = verifyAttestation(
      { request_nonce: `0x${'ab'.repeat(32)}`, all_attestations: [{ intel_quote: 'zz' }] },
      { nonce: 'AB'.repeat(32) },
    );
    expect(verdict.checks.find((c) => c.id === 'nonce_echo')?.status).toBe('passed');
    expect(verdict.checks.find((c) => c.id === 'quote_format')?.reason).toContain('not a hex string');
  });

  it('refuses a nonce that is not 32 bytes: that is a caller bug, not a verdict', () => {
    expect(() => verifyAttestation({}, { nonce: 'abcd' })).toThrow(/32/);
  });

  it('says which field of nvidia_payload is wrong', () => {
    expect(() => parseGpuPayload('{"nonce":"00","evidence_list":[]}')).toThrow(/evidence_list/);
    expect(() => parseGpuPayload('not json')).toThrow(/not valid JSON/);
  });
});

describe('signed text', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);

  it('reads both forms, a model id with colons included', () => {
    expect(parseSignedText(`${a}:${b}`)).toEqual({ requestHash: a, responseHash: b });
    expect(parseSignedText(`TEE/x:thinking:${a}:${b}`)).toEqual({
      model: 'TEE/x:thinking',
      requestHash: a,
      responseHash: b,
    });
    expect(parseSignedText(`${a}:short`)).toBeUndefined();
  });

  it('does not verify a signature without an attested address, and says whose it is', () => {
    const verdict = verifyReplySignature({
      reply: {
        text: 'I♥SF',
        signature:
          '0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c',
      },
      attestedAddress: undefined,
    });
    expect(verdict.verified).toBe(false);
    expect(verdict.checks.find((c) => c.id === 'signature_recovery')).toMatchObject({
      status: 'not_checked',
      reason: expect.stringContaining('0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E'),
    });
    expect(verdict.failed).toEqual(['signature_text_format']);
  });

  it('leaves the hashes not checked when the client did not make the request', () => {
    const verdict = verifyReplySignature({
      reply: { text: `${a}:${b}`, signature: '0x00' },
      attestedAddress: '0x00',
    });
    expect(verdict.checks.filter((c) => c.id.endsWith('_hash')).map((c) => c.status)).toEqual([
      'not_checked',
      'not_checked',
    ]);
    expect(verdict.failed).toEqual(['signature_recovery']);
  });

  it('fails a text signed for another model', () => {
    const verdict = verifyReplySignature({
      reply: { text: `TEE/other:${a}:${b}`, signature: '0x00' },
      attestedAddress: undefined,
      model: 'TEE/mine',
    });
    expect(verdict.checks[0]).toMatchObject({ id: 'signature_text_format', status: 'failed' });
  });
});
