import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { equalBytes, toHex } from './bytes.js';
import { type Check, failed, guard, notChecked, passed } from './checks.js';
import type { TdxQuote } from './tdx-quote.js';
import { CERT_DATA_PCK_CHAIN } from './tdx-quote.js';
import { ecPublicKey, parseCertificates, type TrustAnchor, verifyChain } from './x509.js';

/** The TD's measurements, hex, for a person to compare with published values. */
export interface TdMeasurements {
  mrtd: string;
  rtmr0: string;
  rtmr1: string;
  rtmr2: string;
  rtmr3: string;
  mrConfigId: string;
  mrOwner: string;
  mrOwnerConfig: string;
  mrSeam: string;
  tdAttributes: string;
  xfam: string;
  teeTcbSvn: string;
}

export type ExpectedMeasurements = Partial<
  Pick<TdMeasurements, 'mrtd' | 'rtmr0' | 'rtmr1' | 'rtmr2' | 'rtmr3'>
>;

export function measurementsOf(quote: TdxQuote): TdMeasurements {
  const b = quote.body;
  return {
    mrtd: toHex(b.mrTd),
    rtmr0: toHex(b.rtmr[0]),
    rtmr1: toHex(b.rtmr[1]),
    rtmr2: toHex(b.rtmr[2]),
    rtmr3: toHex(b.rtmr[3]),
    mrConfigId: toHex(b.mrConfigId),
    mrOwner: toHex(b.mrOwner),
    mrOwnerConfig: toHex(b.mrOwnerConfig),
    mrSeam: toHex(b.mrSeam),
    tdAttributes: toHex(b.tdAttributes),
    xfam: toHex(b.xfam),
    teeTcbSvn: toHex(b.teeTcbSvn),
  };
}

/** report_data = signing address right-padded with zeros to 32 bytes, then the 32-byte nonce. */
export function checkReportData(quote: TdxQuote, address: Uint8Array | undefined, nonce: Uint8Array): Check {
  const id = 'report_data_binding';
  if (!address) return failed(id, 'The reply has no usable signing_address to compare report_data with.');
  const expected = new Uint8Array(64);
  expected.set(address, 0);
  expected.set(nonce, 32);
  const actual = quote.body.reportData;
  if (!equalBytes(actual.subarray(0, 32), expected.subarray(0, 32))) {
    return failed(
      id,
      `report_data starts with ${toHex(actual.subarray(0, 32))}, not the signing address padded to 32 bytes.`,
    );
  }
  if (!equalBytes(actual.subarray(32), expected.subarray(32))) {
    return failed(id, `report_data ends with ${toHex(actual.subarray(32))}, not our nonce.`);
  }
  return passed(id, 'report_data is the signing address padded to 32 bytes followed by our nonce.');
}

/** TDATTRIBUTES bit 0 is DEBUG: a debug TD's memory is readable by the host, so nothing is private. */
export function checkNotDebug(quote: TdxQuote): Check {
  const debug = ((quote.body.tdAttributes[0] ?? 0) & 1) === 1;
  return debug
    ? failed('td_not_debug', 'The TD runs in debug mode (TDATTRIBUTES bit 0): its memory is not protected.')
    : passed('td_not_debug', 'The TD is not in debug mode.');
}

export function checkQuoteSignature(quote: TdxQuote): Check {
  return guard('quote_signature', () => {
    const key = concatBytes(Uint8Array.of(4), quote.attestationKey);
    // Intel's quoting enclave does not normalise s, so high-s signatures are valid here.
    const ok = p256.verify(quote.signature, quote.signedData, key, { lowS: false });
    return ok
      ? passed(
          'quote_signature',
          "The attestation key's ECDSA P-256 signature over header and TD report verifies.",
        )
      : failed(
          'quote_signature',
          "The attestation key's signature over header and TD report does not verify.",
        );
  });
}

export function checkQeBinding(quote: TdxQuote): Check {
  const expected = sha256(concatBytes(quote.attestationKey, quote.qeAuthData));
  const actual = quote.qeReport.reportData.subarray(0, 32);
  return equalBytes(actual, expected)
    ? passed(
        'qe_report_binding',
        'The QE report binds the attestation key: sha256(key || QE auth data) matches.',
      )
    : failed(
        'qe_report_binding',
        `The QE report's report_data ${toHex(actual)} is not sha256(attestation key || QE auth data) ${toHex(expected)}.`,
      );
}

/** The PCK chain, and the QE report signature by the PCK certificate's key. */
export function checkPck(quote: TdxQuote, anchors: readonly TrustAnchor[], now: Date): Check[] {
  if (quote.certificationDataType !== CERT_DATA_PCK_CHAIN) {
    const reason = `The quote carries certification data type ${quote.certificationDataType}, not the PCK chain (5); the PCK certificate would have to be fetched from Intel.`;
    return [notChecked('qe_report_signature', reason), failed('pck_chain', reason)];
  }
  let chain: ReturnType<typeof parseCertificates>;
  try {
    chain = parseCertificates(quote.certificationData, 'The PCK certification data');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [notChecked('qe_report_signature', reason), failed('pck_chain', reason)];
  }
  const leaf = chain[0];
  const qeSignature = guard('qe_report_signature', () => {
    if (!leaf) return failed('qe_report_signature', 'The PCK chain is empty.');
    const ok = p256.verify(quote.qeReportSignature, quote.qeReport.raw, ecPublicKey(leaf), { lowS: false });
    return ok
      ? passed('qe_report_signature', "The QE report's signature verifies with the PCK certificate's key.")
      : failed(
          'qe_report_signature',
          "The QE report's signature does not verify with the PCK certificate's key.",
        );
  });
  const result = verifyChain(chain, anchors, now);
  const pck = result.ok
    ? passed(
        'pck_chain',
        `The PCK chain (${result.length} certificates) leads to the trusted root "${result.anchor}".`,
      )
    : failed('pck_chain', result.reason);
  return [qeSignature, pck];
}

export function checkMeasurements(quote: TdxQuote, expected: ExpectedMeasurements | undefined): Check {
  const id = 'measurements';
  const wanted = Object.entries(expected ?? {}).filter((entry): entry is [string, string] => !!entry[1]);
  if (wanted.length === 0) {
    return notChecked(
      id,
      'No reference values were given: compare the reported MRTD and RTMRs with the values the operator publishes.',
    );
  }
  const actual: Record<string, string> = { ...measurementsOf(quote) };
  const wrong = wanted.filter(([name, value]) => actual[name] !== value.toLowerCase().replace(/^0x/, ''));
  return wrong.length === 0
    ? passed(id, `${wanted.map(([name]) => name.toUpperCase()).join(', ')} match the given reference values.`)
    : failed(
        id,
        `${wrong.map(([name]) => name.toUpperCase()).join(', ')} differ from the given reference values.`,
      );
}

/** What an offline verifier cannot know about a quote, said plainly. */
export function intelOnlineChecks(): Check[] {
  return [
    notChecked(
      'tcb_status',
      "The platform's TCB status (up to date, out of date, revoked) needs Intel's signed TCB info from the PCS; not fetched offline.",
    ),
    notChecked(
      'qe_identity',
      "The Quoting Enclave's identity needs Intel's signed QE identity from the PCS; not fetched offline.",
    ),
    notChecked(
      'intel_revocation',
      "Revocation of the PCK and intermediate certificates needs Intel's CRLs; not fetched offline.",
    ),
  ];
}
