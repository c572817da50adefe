import { z } from 'zod';
import { readReply } from '../replies/read.js';
import { fromHex, TeeFormatError, toHex } from './bytes.js';
import { type Check, type CheckId, failed, failedIds, notChecked, passed } from './checks.js';
import { toChecksumAddress } from './eip191.js';
import { checkGpu, type GpuSummary } from './gpu-checks.js';
import {
  checkMeasurements,
  checkNotDebug,
  checkPck,
  checkQeBinding,
  checkQuoteSignature,
  checkReportData,
  type ExpectedMeasurements,
  intelOnlineChecks,
  measurementsOf,
  type TdMeasurements,
} from './quote-checks.js';
import { parseTdxQuote, type TdxQuote } from './tdx-quote.js';
import { PINNED_ROOTS, type TrustedRoots } from './trust-anchors.js';

/** `GET /api/v1/tee/attestation` reply (spec 2 §4.12, GAPS.md); parsed leniently, unknown keys ignored. */
const AttestationFields = z.object({
  signing_address: z.string().optional(),
  signing_algo: z.string().optional(),
  nonce: z.string().optional(),
  request_nonce: z.string().optional(),
  intel_quote: z.string().optional(),
  nvidia_payload: z.unknown().optional(),
});
const AttestationReply = AttestationFields.extend({ all_attestations: z.array(z.unknown()).optional() });
type AttestationFields = z.infer<typeof AttestationFields>;

export interface AttestationOptions {
  /** The 32-byte nonce this client sent, hex. */
  nonce: string;
  /** Roots the PCK and GPU chains may end at; the vendors' real roots by default. */
  roots?: TrustedRoots;
  /** When certificates must be valid; now by default. */
  now?: Date;
  /** Published MRTD/RTMR values to compare with; without them the measurements are only reported. */
  expectedMeasurements?: ExpectedMeasurements;
}

export interface AttestationVerdict {
  /** True when no check failed and the binding, quote and chain checks all passed. */
  verified: boolean;
  signingAddress?: string;
  signingAlgo: string;
  nonce: string;
  /** Names of the roots the chains were allowed to end at. */
  trustedRoots: { intel: string[]; nvidia: string[] };
  quote?: { version: number; kind: string; bytes: number };
  measurements?: TdMeasurements;
  gpu?: GpuSummary;
  checks: Check[];
  failed: CheckId[];
}

/** The checks an offline verdict cannot be `verified` without. */
const REQUIRED: readonly CheckId[] = [
  'nonce_echo',
  'quote_format',
  'report_data_binding',
  'td_not_debug',
  'quote_signature',
  'qe_report_signature',
  'qe_report_binding',
  'pck_chain',
  'gpu_payload_format',
  'gpu_nonce',
  'gpu_cert_chain',
  'gpu_evidence_signature',
];

/** Checks an attestation reply offline against the nonce we sent and the roots we trust. */
export function verifyAttestation(reply: unknown, options: AttestationOptions): AttestationVerdict {
  const nonce = fromHex(options.nonce, 'The nonce');
  if (nonce.length !== 32) throw new TeeFormatError(`The nonce is ${nonce.length} bytes; it must be 32.`);
  const roots = options.roots ?? PINNED_ROOTS;
  const now = options.now ?? new Date();
  const fields = attestationFields(reply);
  const signingAlgo = fields.signing_algo ?? 'ecdsa';
  const address = signingAddress(fields.signing_address);
  const checks: Check[] = [checkNonceEcho(fields, nonce)];

  let quote: TdxQuote | undefined;
  try {
    if (!fields.intel_quote) throw new TeeFormatError('The reply has no intel_quote.');
    quote = parseTdxQuote(fromHex(fields.intel_quote, 'intel_quote'));
    checks.push(
      passed(
        'quote_format',
        `intel_quote parses as a TDX quote v${quote.header.version} (${quote.body.kind}).`,
      ),
    );
  } catch (error) {
    checks.push(failed('quote_format', error instanceof Error ? error.message : String(error)));
  }
  if (quote) {
    checks.push(
      checkReportData(quote, address, nonce),
      checkNotDebug(quote),
      checkQuoteSignature(quote),
      ...checkPck(quote, roots.intel, now),
      checkQeBinding(quote),
      checkMeasurements(quote, options.expectedMeasurements),
    );
  } else {
    const reason = 'Not checked: the TDX quote did not parse.';
    for (const id of QUOTE_CHECKS) checks.push(notChecked(id, reason));
  }
  checks.push(...intelOnlineChecks());
  const gpu = checkGpu(fields.nvidia_payload, nonce, roots.nvidia, now);
  checks.push(...gpu.checks);
  checks.push(
    notChecked(
      'online_appraisal',
      "Intel's and NVIDIA's attestation services (Intel Trust Authority, NVIDIA NRAS) were not asked: this verifier works offline.",
    ),
  );

  const byId = new Map(checks.map((check) => [check.id, check.status]));
  const verified =
    REQUIRED.every((id) => byId.get(id) === 'passed') && !checks.some((c) => c.status === 'failed');
  return {
    verified,
    ...(fields.signing_address && address ? { signingAddress: displayAddress(fields.signing_address) } : {}),
    signingAlgo,
    nonce: toHex(nonce),
    trustedRoots: { intel: roots.intel.map((r) => r.name), nvidia: roots.nvidia.map((r) => r.name) },
    ...(quote
      ? {
          quote: { version: quote.header.version, kind: quote.body.kind, bytes: quote.signedData.length },
          measurements: measurementsOf(quote),
        }
      : {}),
    ...(gpu.summary ? { gpu: gpu.summary } : {}),
    checks,
    failed: failedIds(checks),
  };
}

const QUOTE_CHECKS: readonly CheckId[] = [
  'report_data_binding',
  'td_not_debug',
  'quote_signature',
  'qe_report_signature',
  'pck_chain',
  'qe_report_binding',
  'measurements',
];

/** The top-level fields, or the first of `all_attestations` when the top level has no quote. */
function attestationFields(reply: unknown): AttestationFields {
  const parsed = readReply(AttestationReply, reply);
  if (!parsed.success) return {};
  if (parsed.data.intel_quote || !parsed.data.all_attestations?.length) return parsed.data;
  const top = parsed.data;
  const first = readReply(AttestationFields, top.all_attestations?.[0]);
  if (!first.success) return top;
  return {
    ...first.data,
    nonce: top.nonce ?? first.data.nonce,
    request_nonce: top.request_nonce ?? first.data.request_nonce,
  };
}

function checkNonceEcho(fields: AttestationFields, nonce: Uint8Array): Check {
  const echoed = fields.nonce ?? fields.request_nonce;
  if (echoed === undefined)
    return failed('nonce_echo', 'The reply echoes no nonce (`nonce` or `request_nonce`).');
  const clean = echoed.trim().toLowerCase().replace(/^0x/, '');
  return clean === toHex(nonce)
    ? passed('nonce_echo', 'The reply echoes our nonce.')
    : failed('nonce_echo', `The reply echoes nonce ${echoed}, not ours (${toHex(nonce)}).`);
}

/** The signing address as bytes (20 for ecdsa; up to 32 for other algorithms), or undefined. */
function signingAddress(value: string | undefined): Uint8Array | undefined {
  if (!value) return undefined;
  try {
    const bytes = fromHex(value, 'signing_address');
    return bytes.length > 0 && bytes.length <= 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function displayAddress(value: string): string {
  try {
    return toChecksumAddress(value);
  } catch {
    return value;
  }
}
