/**
 * Offline verification of enclave attestation and per-reply signatures (spec 2 §4.12, GAPS.md
 * "Enclave attestation"). Pure functions: no HTTP, no MCP; the caller fetches and passes replies.
 */

export type { AttestationVerdict } from './attestation.js';
export { verifyAttestation } from './attestation.js';

export type { CheckId } from './checks.js';
export { personalMessageHash, recoverPersonalSigner, toChecksumAddress } from './eip191.js';

export { parseGpuPayload } from './gpu-evidence.js';
export { isEnclaveModel, newNonce, TEE_MODEL_PREFIX } from './models.js';

export type { ReplySignatureVerdict } from './reply-signature.js';
export { parseSignedText, verifyReplySignature } from './reply-signature.js';

export { parseTdxQuote } from './tdx-quote.js';
export type { TrustedRoots } from './trust-anchors.js';
export { INTEL_SGX_ROOT_CA, PINNED_ROOTS } from './trust-anchors.js';
export type { TrustAnchor } from './x509.js';
