import { sha256, sha384 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { type EcKey, signRaw } from './keys.js';

/**
 * Builds Intel TDX quotes (v4, or v5 with a TDX 1.0 body) byte for byte as Intel lays them out:
 * header 48 | TD report 584 | signature data length | quote signature 64 | attestation key 64 |
 * certification data type 6 { QE report 384 | QE report signature 64 | QE auth data | type 5 PCK
 * chain PEM }. Little-endian integers throughout.
 */
const INTEL_QE_VENDOR_ID = hexToBytes('939a7233f79c4ca9940a0db3957f0607');
const TEE_TYPE_TDX = 0x81;
const ATTESTATION_KEY_ECDSA_P256 = 2;

/** The TD's measurements; RTMR3 differs per model (the workload), the rest is the shared image. */
export interface TdMeasurements {
  mrTd: Uint8Array;
  rtmr: [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
}

export function measurementsFor(model: string): TdMeasurements {
  const m = (label: string) => sha384(utf8ToBytes(`orbit-sandbox-tee:${label}`));
  return { mrTd: m('mrtd'), rtmr: [m('rtmr0'), m('rtmr1'), m('rtmr2'), m(`rtmr3:${model}`)] };
}

export interface QuoteParts {
  version: 4 | 5;
  reportData: Uint8Array;
  measurements: TdMeasurements;
  /** Sets TDATTRIBUTES.DEBUG: a TD whose memory the host can read. */
  debug?: boolean;
  attestationKey: EcKey;
  /** Flips a bit of the quote signature after signing. */
  spoilSignature?: boolean;
  qe: QeParts;
}

/** The QE report and what signs and binds it. */
export interface QeParts {
  report: Uint8Array;
  signature: Uint8Array;
  authData: Uint8Array;
  pckChainPem: string;
}

export function buildQuote(parts: QuoteParts): Uint8Array {
  const header = concatBytes(
    u16(parts.version),
    u16(ATTESTATION_KEY_ECDSA_P256),
    u32(TEE_TYPE_TDX),
    u16(3), // QE SVN
    u16(13), // PCE SVN
    INTEL_QE_VENDOR_ID,
    sha256(utf8ToBytes('orbit-sandbox-tee:qe-id')).subarray(0, 20),
  );
  const report = tdReport(parts);
  const descriptor = parts.version === 5 ? concatBytes(u16(2), u32(report.length)) : new Uint8Array(0);
  const signed = concatBytes(header, descriptor, report);
  const signature = signRaw(parts.attestationKey, signed);
  if (parts.spoilSignature) signature[63] = (signature[63] ?? 0) ^ 1;
  const pck = utf8ToBytes(parts.qe.pckChainPem);
  const qeCertification = concatBytes(
    parts.qe.report,
    parts.qe.signature,
    u16(parts.qe.authData.length),
    parts.qe.authData,
    u16(5),
    u32(pck.length),
    pck,
  );
  const signatureData = concatBytes(
    signature,
    parts.attestationKey.publicKey.subarray(1),
    u16(6),
    u32(qeCertification.length),
    qeCertification,
  );
  return concatBytes(signed, u32(signatureData.length), signatureData);
}

/** TD report for TDX 1.0: 584 bytes, report_data last. */
function tdReport(parts: QuoteParts): Uint8Array {
  const m = parts.measurements;
  const tdAttributes = hexToBytes('0000001000000000'); // SEPT_VE_DISABLE, as production TDs set it
  if (parts.debug) tdAttributes[0] = (tdAttributes[0] ?? 0) | 1;
  const zeros = (n: number) => new Uint8Array(n);
  return concatBytes(
    hexToBytes('05010200000000000000000000000000'), // TEE_TCB_SVN
    sha384(utf8ToBytes('orbit-sandbox-tee:mrseam')),
    zeros(48), // MRSIGNERSEAM: zero for Intel's own TDX module
    zeros(8), // SEAMATTRIBUTES
    tdAttributes,
    hexToBytes('e702060000000000'), // XFAM
    m.mrTd,
    zeros(48), // MRCONFIGID
    zeros(48), // MROWNER
    zeros(48), // MROWNERCONFIG
    ...m.rtmr,
    parts.reportData,
  );
}

/**
 * The Quoting Enclave's report (an SGX report body, 384 bytes). Its report_data binds the
 * attestation key: sha256(key x||y || QE auth data), then 32 zero bytes, unless `binding` says
 * otherwise.
 */
export function qeReport(attestationKey: EcKey, authData: Uint8Array, binding?: Uint8Array): Uint8Array {
  const zeros = (n: number) => new Uint8Array(n);
  const bound = binding ?? sha256(concatBytes(attestationKey.publicKey.subarray(1), authData));
  return concatBytes(
    hexToBytes('0e0e100fffff01000000000000000000'), // CPUSVN
    u32(0), // MISCSELECT
    zeros(28),
    hexToBytes('15000000000000000700000000000000'), // ATTRIBUTES
    sha256(utf8ToBytes('orbit-sandbox-tee:td-qe-mrenclave')),
    zeros(32),
    sha256(utf8ToBytes('orbit-sandbox-tee:intel-mrsigner')),
    zeros(96),
    u16(2), // ISVPRODID of the TD quoting enclave
    u16(4), // ISVSVN
    zeros(60),
    bound,
    zeros(32),
  );
}

export const qeReportSignature = (report: Uint8Array, signer: EcKey): Uint8Array => signRaw(signer, report);

function u16(value: number): Uint8Array {
  const out = new Uint8Array(2);
  new DataView(out.buffer).setUint16(0, value, true);
  return out;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}
