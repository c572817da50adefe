import { sha384 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { type EcKey, signRaw } from './keys.js';

/**
 * GPU evidence in NVIDIA's shape: an SPDM 1.1 GET_MEASUREMENTS request carrying the nonce, the
 * MEASUREMENTS response, and the device key's P-384 signature over both; wrapped with the device
 * certificate chain into the `nvidia_payload` JSON string of the attestation reply.
 */
export interface GpuEvidenceParts {
  nonce: Uint8Array;
  /** The nonce the evidence is made for (differs from `nonce` only to corrupt it). */
  evidenceNonce: Uint8Array;
  deviceKey: EcKey;
  chainPem: string;
  responderNonce: Uint8Array;
  spoilSignature?: boolean;
}

const SPDM_1_1 = 0x11;
const GET_MEASUREMENTS = 0xe0;
const MEASUREMENTS = 0x60;
const ARCH = 'HOPPER';

export function buildGpuPayload(parts: GpuEvidenceParts): string {
  const request = concatBytes(
    Uint8Array.of(SPDM_1_1, GET_MEASUREMENTS, 0x01, 0xff), // signature requested, all blocks
    parts.evidenceNonce,
    Uint8Array.of(0), // slot 0
  );
  const record = concatBytes(...[1, 2, 3, 4].map(measurementBlock));
  const opaque = concatBytes(u16(1), u16(9), utf8ToBytes('550.90.07')); // one TLV: driver version
  const response = concatBytes(
    Uint8Array.of(SPDM_1_1, MEASUREMENTS, 0, 0, 4),
    u24(record.length),
    record,
    parts.responderNonce,
    u16(opaque.length),
    opaque,
  );
  const signature = signRaw(parts.deviceKey, concatBytes(request, response));
  if (parts.spoilSignature) signature[95] = (signature[95] ?? 0) ^ 1;
  const evidence = concatBytes(request, response, signature);
  return JSON.stringify({
    nonce: bytesToHex(parts.nonce),
    evidence_list: [
      {
        certificate: Buffer.from(parts.chainPem).toString('base64'),
        evidence: Buffer.from(evidence).toString('base64'),
        arch: ARCH,
      },
    ],
    arch: ARCH,
  });
}

/** index | DMTF specification | size u16 | { value type | value size u16 | SHA-384 value }. */
function measurementBlock(index: number): Uint8Array {
  const value = sha384(utf8ToBytes(`orbit-sandbox-tee:gpu-measurement-${index}`));
  const dmtf = concatBytes(Uint8Array.of(0x01), u16(value.length), value);
  return concatBytes(Uint8Array.of(index, 0x01), u16(dmtf.length), dmtf);
}

function u16(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >> 8) & 0xff);
}

function u24(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
}
