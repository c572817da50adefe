/**
 * Offline verification of enclave attestation and per-reply signatures (spec 2 §4.12, GAPS.md
 * "Enclave attestation"). Pure functions: no HTTP, no MCP; the caller fetches and passes replies.
 */

export type { AttestationOptions, AttestationVerdict } from './attestation.js';
export { verifyAttestation } from './attestation.js';
export { sha256Hex, TeeFormatError } from './bytes.js';
export type { Check, CheckId, CheckStatus } from './checks.js';
export { personalMessageHash, recoverPersonalSigner, sameAddress, toChecksumAddress } from './eip191.js';
export type { GpuSummary } from './gpu-checks.js';
export { parseGpuPayload, parseSpdmReport } from './gpu-evidence.js';
export { isEnclaveModel, newNonce, TEE_MODEL_PREFIX } from './models.js';
export type { ExpectedMeasurements, TdMeasurements } from './quote-checks.js';
export type { ReplySignatureInput, ReplySignatureVerdict, SignedText } from './reply-signature.js';
export { parseSignedText, verifyReplySignature } from './reply-signature.js';
export type { TdReport, TdxQuote } from './tdx-quote.js';
export { parseTdxQuote } from './tdx-quote.js';
export type { TrustedRoots } from './trust-anchors.js';
export { INTEL_SGX_ROOT_CA, NVIDIA_DEVICE_IDENTITY_CA, PINNED_ROOTS } from './trust-anchors.js';
export type { TrustAnchor } from './x509.js';
