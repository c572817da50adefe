import type { X509Certificate } from 'node:crypto';
import { p256, p384 } from '@noble/curves/nist.js';
import { equalBytes, toHex } from './bytes.js';
import { type Check, failed, guard, notChecked, passed } from './checks.js';
import {
  type GpuPayload,
  parseGpuPayload,
  parseSpdmReport,
  payloadNonce,
  spdmRequestNonce,
} from './gpu-evidence.js';
import { ecCurve, ecPublicKey, parseCertificates, type TrustAnchor, verifyChain } from './x509.js';

export interface GpuSummary {
  arch: string | undefined;
  devices: number;
}

/** Every GPU check, from the raw `nvidia_payload` field. */
export function checkGpu(
  raw: unknown,
  nonce: Uint8Array,
  anchors: readonly TrustAnchor[],
  now: Date,
): { checks: Check[]; summary?: GpuSummary } {
  let payload: GpuPayload;
  try {
    if (raw === undefined || raw === null) throw new Error('The reply has no nvidia_payload (GPU evidence).');
    payload = parseGpuPayload(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const skipped = `Not checked: ${reason}`;
    return {
      checks: [
        failed('gpu_payload_format', reason),
        notChecked('gpu_nonce', skipped),
        notChecked('gpu_cert_chain', skipped),
        notChecked('gpu_evidence_signature', skipped),
        ...gpuOnlineChecks(),
      ],
    };
  }
  const devices = payload.evidence.length;
  const checks = [
    passed(
      'gpu_payload_format',
      `nvidia_payload carries evidence for ${devices} GPU${devices === 1 ? '' : 's'}.`,
    ),
    guard('gpu_nonce', () => checkNonces(payload, nonce)),
    ...checkDevices(payload, anchors, now),
    ...gpuOnlineChecks(),
  ];
  return { checks, summary: { arch: payload.arch, devices } };
}

/** The payload's nonce and the nonce inside each device's signed SPDM request must both be ours. */
function checkNonces(payload: GpuPayload, nonce: Uint8Array): Check {
  const top = payloadNonce(payload);
  if (!top) return failed('gpu_nonce', 'nvidia_payload has no nonce.');
  if (!equalBytes(top, nonce))
    return failed('gpu_nonce', `nvidia_payload.nonce is ${toHex(top)}, not our nonce.`);
  for (const [index, device] of payload.evidence.entries()) {
    const signed = spdmRequestNonce(device.report);
    if (!equalBytes(signed, nonce)) {
      return failed('gpu_nonce', `GPU ${index}'s signed evidence was made for nonce ${toHex(signed)}.`);
    }
  }
  return passed('gpu_nonce', "The GPU payload and every device's signed evidence carry our nonce.");
}

function checkDevices(payload: GpuPayload, anchors: readonly TrustAnchor[], now: Date): Check[] {
  const chainProblems: string[] = [];
  const signatureProblems: string[] = [];
  const roots = new Set<string>();
  for (const [index, device] of payload.evidence.entries()) {
    try {
      const chain = parseCertificates(device.certificateChainPem, `GPU ${index}'s certificate chain`);
      const result = verifyChain(chain, anchors, now);
      if (result.ok) roots.add(result.anchor);
      else chainProblems.push(`GPU ${index}: ${result.reason}`);
      const leaf = chain[0];
      if (leaf && !verifyEvidence(device.report, leaf)) {
        signatureProblems.push(`GPU ${index}'s evidence signature does not verify with its device key.`);
      }
    } catch (error) {
      const reason = `GPU ${index}: ${error instanceof Error ? error.message : String(error)}`;
      chainProblems.push(reason);
      signatureProblems.push(reason);
    }
  }
  return [
    chainProblems.length === 0
      ? passed(
          'gpu_cert_chain',
          `Every GPU certificate chain leads to the trusted root "${[...roots].join('", "')}".`,
        )
      : failed('gpu_cert_chain', chainProblems.join(' ')),
    signatureProblems.length === 0
      ? passed(
          'gpu_evidence_signature',
          "Every GPU's signed evidence verifies with its device certificate's key.",
        )
      : failed('gpu_evidence_signature', signatureProblems.join(' ')),
  ];
}

function verifyEvidence(report: Uint8Array, leaf: X509Certificate): boolean {
  const curve = ecCurve(leaf);
  const spdm = parseSpdmReport(report, curve === 'P-256' ? 64 : 96);
  const key = ecPublicKey(leaf);
  // SPDM signs with the hash matching the key size: SHA-384 for P-384 (noble's default for p384).
  const verifier = curve === 'P-256' ? p256 : p384;
  return verifier.verify(spdm.signature, spdm.signedData, key, { lowS: false });
}

function gpuOnlineChecks(): Check[] {
  return [
    notChecked(
      'gpu_measurements',
      "The GPU's measurements are judged against NVIDIA's reference values (RIMs) from NVIDIA's RIM service; not fetched offline.",
    ),
    notChecked(
      'gpu_revocation',
      "Revocation of the GPU's certificates needs NVIDIA's OCSP service; not asked offline.",
    ),
  ];
}
