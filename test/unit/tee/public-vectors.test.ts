import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../../src/tee/bytes.js';
import {
  INTEL_SGX_ROOT_CA,
  parseTdxQuote,
  personalMessageHash,
  recoverPersonalSigner,
  toChecksumAddress,
  verifyAttestation,
} from '../../../src/tee/index.js';
import {
  checkPck,
  checkQeBinding,
  checkQuoteSignature,
  measurementsOf,
} from '../../../src/tee/quote-checks.js';
import { ecPublicKey } from '../../../src/tee/x509.js';

/**
 * A real TDX quote from TDX hardware, published as a sample by Phala-Network/dcap-qvl
 * (`sample/tdx-quote.hex`, commit 2b5103d8306eb08bd315634ef83a0e8890f89b13). Its PCK chain is
 * Intel's real one, so it checks the parser and the signature chain independently of the sandbox.
 */
const REAL_QUOTE = fromHex(
  readFileSync(new URL('./fixtures/dcap-qvl-tdx-quote.hex', import.meta.url), 'utf8'),
  'fixture',
);
/** Inside the validity of the quote's PCK certificate (2024-08-02 to 2031-08-02). */
const QUOTE_ERA = new Date('2025-06-01T00:00:00Z');

describe('a real TDX quote (Phala-Network/dcap-qvl sample)', () => {
  const quote = parseTdxQuote(REAL_QUOTE);

  it('parses as a v4 TDX 1.0 quote with Intel as QE vendor and zero padding after it', () => {
    expect(quote.header).toMatchObject({ version: 4, attestationKeyType: 2, teeType: 0x81 });
    expect(toHex(quote.header.qeVendorId)).toBe('939a7233f79c4ca9940a0db3957f0607');
    expect(quote.body.kind).toBe('TDX 1.0');
    expect(quote.signedData.length).toBe(48 + 584);
    expect(quote.qeAuthData.length).toBe(32);
    expect(quote.certificationDataType).toBe(5);
    expect(quote.trailingBytes).toBe(70);
  });

  it('reads the measurements and report data at their offsets', () => {
    const m = measurementsOf(quote);
    expect(m.mrtd).toBe(
      '7ba9e262ce6979087e34632603f354dd8f8a870f5947d116af8114db6c9d0d74c48bec4280e5b4f4a37025a10905bb29',
    );
    expect(m.rtmr0).toBe(
      '4574c098915caf3e82057817dbd135c1ed0ee1b39ac300c921479e2f5ebf5726a13ee0c8745ac891b6aee7c4f9664610',
    );
    expect(m.rtmr3).toBe(
      '547fcba4630bfb981169a8a1903b79c244933413409dd0387acbd8e3b985bcc9164cf52735cd31f60bf2c5d1220c113f',
    );
    expect(m.tdAttributes).toBe('0000001000000000');
    expect(toHex(quote.body.reportData)).toBe(
      '7148f47ef58b475fce69b386e2d6b4c964a9533cc328ea8e544db66612a5174698d006951cefa8fd4450e884300638e567e22f9a012ef5754aa6a9d9564fcd8a',
    );
  });

  it("verifies the attestation key's signature and the QE report's binding of that key", () => {
    expect(checkQuoteSignature(quote).status).toBe('passed');
    expect(checkQeBinding(quote).status).toBe('passed');
  });

  it('verifies the QE report signature and the PCK chain up to the pinned Intel SGX Root CA', () => {
    const [qe, chain] = checkPck(quote, [INTEL_SGX_ROOT_CA], QUOTE_ERA);
    expect(qe).toMatchObject({ id: 'qe_report_signature', status: 'passed' });
    expect(chain).toMatchObject({ id: 'pck_chain', status: 'passed' });
    expect(chain?.reason).toContain('Intel SGX Root CA');
  });

  it('fails the chain when Intel is not trusted, and after the PCK certificate expires', () => {
    expect(checkPck(quote, [], QUOTE_ERA)[1]).toMatchObject({ status: 'failed' });
    const late = checkPck(quote, [INTEL_SGX_ROOT_CA], new Date('2032-01-01T00:00:00Z'))[1];
    expect(late?.status).toBe('failed');
    expect(late?.reason).toContain('Intel SGX PCK Certificate');
  });

  it('fails the quote signature when one byte of the TD report changes', () => {
    const tampered = REAL_QUOTE.slice();
    tampered[48 + 136] = (tampered[48 + 136] ?? 0) ^ 1; // first byte of MRTD
    expect(checkQuoteSignature(parseTdxQuote(tampered)).status).toBe('failed');
  });

  it('through verifyAttestation: the Intel checks pass, and report_data is not our binding', () => {
    const verdict = verifyAttestation(
      {
        signing_address: '0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E',
        nonce: '00'.repeat(32),
        intel_quote: toHex(REAL_QUOTE),
      },
      { nonce: '00'.repeat(32), now: QUOTE_ERA },
    );
    const status = Object.fromEntries(verdict.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({
      nonce_echo: 'passed',
      quote_format: 'passed',
      quote_signature: 'passed',
      qe_report_signature: 'passed',
      qe_report_binding: 'passed',
      pck_chain: 'passed',
      report_data_binding: 'failed',
      tcb_status: 'not_checked',
      gpu_payload_format: 'failed',
    });
    expect(verdict.verified).toBe(false);
  });

  it('rejects a truncated quote with the field it ran out in', () => {
    expect(() => parseTdxQuote(REAL_QUOTE.subarray(0, 700))).toThrow(/signature data/);
    expect(() => parseTdxQuote(REAL_QUOTE.subarray(0, 20))).toThrow(/48-byte header/);
  });
});

describe('the pinned Intel SGX Root CA', () => {
  it("has the public key Intel's Quote Verification Enclave pins (qve.cpp INTEL_ROOT_PUB_KEY)", () => {
    const pinned =
      '040ba9c4c0c0c86193a3fe23d6b02cda10a8bbd4e88e48b4458561a36e705525f567918e2edc88e40d860bd0cc4ee26aacc988e505a953558c453f6b0904ae7394';
    expect(toHex(ecPublicKey(new X509Certificate(INTEL_SGX_ROOT_CA.pem)))).toBe(pinned);
  });
});

/**
 * EIP-191 `personal_sign` vector from the web3.py documentation (ethereum/web3.py
 * `docs/web3.eth.account.rst`, "Sign a Message" / "Account.recoverMessage", commit 00bd6411).
 */
describe('EIP-191 personal_sign (web3.py documentation vector)', () => {
  const message = 'I♥SF';
  const signature =
    '0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c';
  const signer = '0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E';

  it('hashes the prefixed message as the documentation shows', () => {
    expect(toHex(personalMessageHash(message))).toBe(
      '1476abb745d423bf09273f1afd887d951181d25adc66c4834a70491911b7f750',
    );
  });

  it('recovers the documented signer, checksummed', () => {
    expect(recoverPersonalSigner(message, signature)).toBe(signer);
  });

  it('accepts v as 0/1 as well as 27/28', () => {
    expect(recoverPersonalSigner(message, `${signature.slice(0, -2)}01`)).toBe(signer);
  });

  it('recovers someone else for another message, and refuses a 64-byte signature', () => {
    expect(recoverPersonalSigner('I♥NY', signature)).not.toBe(signer);
    expect(() => recoverPersonalSigner(message, signature.slice(0, -2))).toThrow(/not 65/);
  });

  it('spells addresses with the EIP-55 checksum', () => {
    expect(toChecksumAddress(signer.toLowerCase())).toBe(signer);
  });
});
