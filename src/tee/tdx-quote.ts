import { ByteReader, TeeFormatError } from './bytes.js';

/**
 * Intel TDX quote, versions 4 and 5, laid out as Intel's own verifier parses it
 * (github.com/intel/SGX-TDX-DCAP-QuoteVerificationLibrary,
 * `Src/AttestationLibrary/src/QuoteVerification/Quote.cpp` and `QuoteConstants.h`). Integers are
 * little-endian.
 *
 *   header (48) | [v5: body type u16, body size u32] | TD report (584 TDX 1.0, 648 TDX 1.5)
 *   | signature data length u32 | signature data
 *
 * Signature data (attestation key type 2, ECDSA P-256):
 *   quote signature (64, r||s) | attestation public key (64, x||y)
 *   | certification data: type u16 = 6 (QE report certification data), size u32, then
 *       QE report (384, an SGX enclave report body) | QE report signature (64)
 *       | QE auth data: size u16, bytes | certification data: type u16 = 5 (PCK chain, PEM), size u32
 */
const TEE_TYPE_TDX = 0x81;
const ATTESTATION_KEY_ECDSA_P256 = 2;
const CERT_DATA_QE_REPORT = 6;
export const CERT_DATA_PCK_CHAIN = 5;
const HEADER_BYTES = 48;
const TD_REPORT10_BYTES = 584;
const TD_REPORT15_BYTES = 648;
const QE_REPORT_BYTES = 384;

interface QuoteHeader {
  version: number;
  attestationKeyType: number;
  teeType: number;
  qeSvn: number;
  pceSvn: number;
  qeVendorId: Uint8Array;
  userData: Uint8Array;
}

/** The TD report body: the TD's measurements and the 64 bytes of report data it chose. */
interface TdReport {
  /** `TDX 1.0` (v4, or v5 body type 2) or `TDX 1.5` (v5 body type 3). */
  kind: 'TDX 1.0' | 'TDX 1.5';
  teeTcbSvn: Uint8Array;
  mrSeam: Uint8Array;
  mrSignerSeam: Uint8Array;
  seamAttributes: Uint8Array;
  tdAttributes: Uint8Array;
  xfam: Uint8Array;
  mrTd: Uint8Array;
  mrConfigId: Uint8Array;
  mrOwner: Uint8Array;
  mrOwnerConfig: Uint8Array;
  rtmr: [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  reportData: Uint8Array;
  /** TDX 1.5 only. */
  teeTcbSvn2?: Uint8Array;
  mrServiceTd?: Uint8Array;
}

/** The Quoting Enclave's own SGX report, signed by the platform's PCK key. */
interface QeReport {
  raw: Uint8Array;
  mrEnclave: Uint8Array;
  mrSigner: Uint8Array;
  isvProdId: number;
  isvSvn: number;
  reportData: Uint8Array;
}

export interface TdxQuote {
  header: QuoteHeader;
  body: TdReport;
  /** Header (and v5 body descriptor) and TD report: what the attestation key signed. */
  signedData: Uint8Array;
  signature: Uint8Array;
  attestationKey: Uint8Array;
  qeReport: QeReport;
  qeReportSignature: Uint8Array;
  qeAuthData: Uint8Array;
  /** Type of the innermost certification data (5 = PCK certificate chain). */
  certificationDataType: number;
  certificationData: Uint8Array;
  /** Bytes after the declared signature data (quote buffers are often zero-padded). */
  trailingBytes: number;
}

/** Parses a TDX quote; throws `TeeFormatError` saying which field is wrong. */
export function parseTdxQuote(bytes: Uint8Array): TdxQuote {
  const reader = new ByteReader(bytes, 'The TDX quote');
  const header = readHeader(reader);
  let kind: TdReport['kind'] = 'TDX 1.0';
  if (header.version === 5) {
    const bodyType = reader.u16('the body type');
    const bodySize = reader.u32('the body size');
    const expected = bodyType === 2 ? TD_REPORT10_BYTES : bodyType === 3 ? TD_REPORT15_BYTES : undefined;
    if (expected === undefined) {
      throw new TeeFormatError(`Quote v5 body type ${bodyType} is not a TD report (2 or 3).`);
    }
    if (bodySize !== expected) {
      throw new TeeFormatError(`Quote v5 body type ${bodyType} declares ${bodySize} bytes, not ${expected}.`);
    }
    kind = bodyType === 3 ? 'TDX 1.5' : 'TDX 1.0';
  }
  const body = readTdReport(reader, kind);
  const signedData = bytes.subarray(0, reader.position);
  const signatureDataLength = reader.u32('the signature data length');
  const signatureData = new ByteReader(
    reader.take(signatureDataLength, 'the signature data'),
    'The signature data',
  );
  const signature = signatureData.take(64, 'the quote signature');
  const attestationKey = signatureData.take(64, 'the attestation key');
  const outerType = signatureData.u16('the certification data type');
  const outerSize = signatureData.u32('the certification data size');
  if (outerType !== CERT_DATA_QE_REPORT) {
    throw new TeeFormatError(
      `Certification data type is ${outerType}; a v4/v5 quote carries type 6 (QE report certification data).`,
    );
  }
  const qe = new ByteReader(signatureData.take(outerSize, 'the QE report certification data'), 'The QE data');
  const qeReport = readQeReport(qe.take(QE_REPORT_BYTES, 'the QE report'));
  const qeReportSignature = qe.take(64, 'the QE report signature');
  const qeAuthData = qe.take(qe.u16('the QE auth data size'), 'the QE auth data');
  const certificationDataType = qe.u16('the PCK certification data type');
  const certificationData = qe.take(qe.u32('the PCK certification data size'), 'the PCK certification data');
  return {
    header,
    body,
    signedData,
    signature,
    attestationKey,
    qeReport,
    qeReportSignature,
    qeAuthData,
    certificationDataType,
    certificationData,
    trailingBytes: reader.remaining,
  };
}

function readHeader(reader: ByteReader): QuoteHeader {
  if (reader.remaining < HEADER_BYTES) {
    throw new TeeFormatError(`The TDX quote is ${reader.remaining} bytes, shorter than its 48-byte header.`);
  }
  const header: QuoteHeader = {
    version: reader.u16('the version'),
    attestationKeyType: reader.u16('the attestation key type'),
    teeType: reader.u32('the TEE type'),
    qeSvn: reader.u16('the QE SVN'),
    pceSvn: reader.u16('the PCE SVN'),
    qeVendorId: reader.take(16, 'the QE vendor id'),
    userData: reader.take(20, 'the user data'),
  };
  if (header.version !== 4 && header.version !== 5) {
    throw new TeeFormatError(`Quote version ${header.version} is not a TDX quote version (4 or 5).`);
  }
  if (header.teeType !== TEE_TYPE_TDX) {
    throw new TeeFormatError(`TEE type 0x${header.teeType.toString(16)} is not TDX (0x81).`);
  }
  if (header.attestationKeyType !== ATTESTATION_KEY_ECDSA_P256) {
    throw new TeeFormatError(
      `Attestation key type ${header.attestationKeyType} is not ECDSA P-256 (2), the only one Intel defines for quotes.`,
    );
  }
  return header;
}

function readTdReport(reader: ByteReader, kind: TdReport['kind']): TdReport {
  const field = (length: number, name: string) => reader.take(length, `the TD report's ${name}`);
  const report: TdReport = {
    kind,
    teeTcbSvn: field(16, 'TEE_TCB_SVN'),
    mrSeam: field(48, 'MRSEAM'),
    mrSignerSeam: field(48, 'MRSIGNERSEAM'),
    seamAttributes: field(8, 'SEAMATTRIBUTES'),
    tdAttributes: field(8, 'TDATTRIBUTES'),
    xfam: field(8, 'XFAM'),
    mrTd: field(48, 'MRTD'),
    mrConfigId: field(48, 'MRCONFIGID'),
    mrOwner: field(48, 'MROWNER'),
    mrOwnerConfig: field(48, 'MROWNERCONFIG'),
    rtmr: [field(48, 'RTMR0'), field(48, 'RTMR1'), field(48, 'RTMR2'), field(48, 'RTMR3')],
    reportData: field(64, 'REPORTDATA'),
  };
  if (kind === 'TDX 1.5') {
    report.teeTcbSvn2 = field(16, 'TEE_TCB_SVN_2');
    report.mrServiceTd = field(48, 'MRSERVICETD');
  }
  return report;
}

/** SGX report body: cpusvn 16, miscselect 4, reserved 28, attributes 16, mrenclave 32, reserved 32,
 * mrsigner 32, reserved 96, isvprodid 2, isvsvn 2, reserved 60, reportdata 64. */
function readQeReport(raw: Uint8Array): QeReport {
  const reader = new ByteReader(raw, 'The QE report');
  reader.take(16 + 4 + 28 + 16, 'the QE report header');
  const mrEnclave = reader.take(32, 'MRENCLAVE');
  reader.take(32, 'reserved bytes');
  const mrSigner = reader.take(32, 'MRSIGNER');
  reader.take(96, 'reserved bytes');
  const isvProdId = reader.u16('ISVPRODID');
  const isvSvn = reader.u16('ISVSVN');
  reader.take(60, 'reserved bytes');
  return { raw, mrEnclave, mrSigner, isvProdId, isvSvn, reportData: reader.take(64, 'REPORTDATA') };
}
