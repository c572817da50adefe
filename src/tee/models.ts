import { randomBytes } from 'node:crypto';

/**
 * Enclave models are the ones whose id starts with the TEE prefix (spec 2 §4.12); the platform
 * spells it `TEE/` (e.g. `TEE/hermes-3-llama-3.1-70b` in its TEE verification guide). Compared
 * case-insensitively so a lower-case id still counts.
 */
export const TEE_MODEL_PREFIX = 'TEE/';

export const isEnclaveModel = (id: string): boolean =>
  id.toLowerCase().startsWith(TEE_MODEL_PREFIX.toLowerCase());

/** A fresh attestation nonce: 32 random bytes, hex (GAPS.md). */
export const newNonce = (): string => randomBytes(32).toString('hex');
