import { z } from 'zod';
import { readReply } from '../replies/read.js';
import { ByteReader, fromHex, TeeFormatError } from './bytes.js';

/**
 * NVIDIA GPU evidence as the attestation reply carries it (`nvidia_payload`, a JSON string):
 * `{nonce, evidence_list: [{evidence, certificate, arch?}], arch}`, where `evidence` is the base64
 * attestation report and `certificate` the base64 of the device's PEM certificate chain, as NVIDIA's
 * verifier builds it (NVIDIA/nvtrust `local_gpu_verifier/src/verifier/cc_admin.py`,
 * `collect_gpu_evidence_remote`).
 */
const GpuPayloadSchema = z.object({
  nonce: z.string().optional(),
  arch: z.string().optional(),
  evidence_list: z
    .array(z.object({ evidence: z.string(), certificate: z.string(), arch: z.string().optional() }))
    .min(1),
});

interface GpuEvidence {
  arch: string | undefined;
  report: Uint8Array;
  certificateChainPem: string;
}

export interface GpuPayload {
  nonce: string | undefined;
  arch: string | undefined;
  evidence: GpuEvidence[];
}

export function parseGpuPayload(payload: unknown): GpuPayload {
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload);
    } catch {
      throw new TeeFormatError('nvidia_payload is not valid JSON.');
    }
  }
  const parsed = readReply(GpuPayloadSchema, value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TeeFormatError(
      `nvidia_payload does not have the expected shape: ${issue?.path.join('.') || 'payload'}: ${issue?.message}.`,
    );
  }
  return {
    nonce: parsed.data.nonce,
    arch: parsed.data.arch,
    evidence: parsed.data.evidence_list.map((item) => ({
      arch: item.arch ?? parsed.data.arch,
      report: fromBase64(item.evidence, 'a GPU evidence'),
      certificateChainPem: new TextDecoder().decode(fromBase64(item.certificate, 'a GPU certificate chain')),
    })),
  };
}

function fromBase64(text: string, what: string): Uint8Array {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(text)) throw new TeeFormatError(`${what} is not base64.`);
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * The attestation report is an SPDM GET_MEASUREMENTS request (37 bytes: version, code, param1,
 * param2, nonce 32, slot) followed by the MEASUREMENTS response (version, code, param1, param2,
 * block count, record length u24, record, responder nonce 32, opaque length u16, opaque data,
 * signature). The signature covers request || response without the signature (DMTF SPDM 1.1;
 * nvtrust `verifier/attestation/spdm_msrt_req_msg.py`, `spdm_msrt_resp_msg.py`, `__init__.py`).
 */
export interface SpdmReport {
  requestNonce: Uint8Array;
  responderNonce: Uint8Array;
  measurements: { index: number; value: Uint8Array }[];
  signedData: Uint8Array;
  signature: Uint8Array;
}

const REQUEST_BYTES = 37;

/** `signatureBytes` is 96 for the P-384 keys of Hopper and Blackwell GPUs. */
export function parseSpdmReport(report: Uint8Array, signatureBytes: number): SpdmReport {
  const request = new ByteReader(report.subarray(0, REQUEST_BYTES), 'The SPDM request');
  request.take(4, 'the request header');
  const requestNonce = request.take(32, 'the request nonce');
  request.take(1, 'the slot id');
  const response = new ByteReader(report.subarray(REQUEST_BYTES), 'The SPDM response');
  response.take(4, 'the response header');
  const blocks = response.u8('the measurement block count');
  const record = new ByteReader(response.take(response.u24('the record length'), 'the record'), 'The record');
  const measurements: SpdmReport['measurements'] = [];
  for (let i = 0; i < blocks; i++) {
    const index = record.u8('a block index');
    record.u8('a block specification');
    const block = new ByteReader(record.take(record.u16('a block size'), 'a measurement block'), 'A block');
    block.u8('a DMTF value type');
    measurements.push({ index, value: block.take(block.u16('a DMTF value size'), 'a measurement value') });
  }
  const responderNonce = response.take(32, 'the responder nonce');
  response.take(response.u16('the opaque data length'), 'the opaque data');
  const signature = response.take(signatureBytes, 'the signature');
  if (response.remaining !== 0) {
    throw new TeeFormatError(`The SPDM response has ${response.remaining} bytes after its signature.`);
  }
  return {
    requestNonce,
    responderNonce,
    measurements,
    signedData: report.subarray(0, report.length - signatureBytes),
    signature,
  };
}

/** The nonce the device signed: bytes 4..36 of the SPDM request that opens the report. */
export function spdmRequestNonce(report: Uint8Array): Uint8Array {
  const request = new ByteReader(report, 'The GPU evidence');
  request.take(4, 'the SPDM request header');
  return request.take(32, 'the SPDM request nonce');
}

/** The payload nonce as bytes, for comparing with ours. */
export const payloadNonce = (payload: GpuPayload): Uint8Array | undefined =>
  payload.nonce === undefined ? undefined : fromHex(payload.nonce, 'nvidia_payload.nonce');
