import { p256, p384 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256, sha384 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Every key of the sandbox enclave is derived from a label, so a sandbox started twice attests with
 * the same addresses and roots (deterministic, like the rest of the sandbox). They are test keys:
 * anyone can derive them, which is why a verifier trusts the sandbox roots only for the sandbox.
 */
export type Curve = 'P-256' | 'P-384';

export interface EcKey {
  curve: Curve;
  secret: Uint8Array;
  /** Uncompressed point, 0x04 || x || y. */
  publicKey: Uint8Array;
}

const CURVES = { 'P-256': { impl: p256, hash: sha256 }, 'P-384': { impl: p384, hash: sha384 } } as const;

export function derivedKey(label: string, curve: Curve): EcKey {
  const { impl, hash } = CURVES[curve];
  for (let attempt = 0; ; attempt++) {
    const secret = hash(utf8ToBytes(`orbit-sandbox-tee:${label}:${attempt}`));
    if (impl.utils.isValidSecretKey(secret)) {
      return { curve, secret, publicKey: impl.getPublicKey(secret, false) };
    }
  }
}

/** Raw r || s signature over `message`, hashed with the curve's hash (SHA-256 / SHA-384). */
export function signRaw(key: EcKey, message: Uint8Array): Uint8Array {
  return CURVES[key.curve].impl.sign(message, key.secret);
}

/** DER signature, as X.509 certificates carry it. */
export function signDer(key: EcKey, message: Uint8Array): Uint8Array {
  return CURVES[key.curve].impl.sign(message, key.secret, { format: 'der' });
}

/** An enclave's secp256k1 signing key and its Ethereum-style address (EIP-55 spelling). */
export interface SigningKey {
  secret: Uint8Array;
  address: string;
}

export function signingKey(label: string): SigningKey {
  for (let attempt = 0; ; attempt++) {
    const secret = sha256(utf8ToBytes(`orbit-sandbox-tee-signer:${label}:${attempt}`));
    if (!secp256k1.utils.isValidSecretKey(secret)) continue;
    const point = secp256k1.getPublicKey(secret, false);
    return { secret, address: checksumAddress(keccak_256(point.subarray(1)).subarray(12)) };
  }
}

/**
 * EIP-191 `personal_sign`: keccak256("\x19Ethereum Signed Message:\n" + length + text), signed with
 * secp256k1, returned as 65-byte r || s || v hex with v = 27 or 28. Written here rather than
 * shared with src/tee so the verifier's tests check it against an independent signer.
 */
export function personalSign(key: SigningKey, text: string): string {
  const message = utf8ToBytes(text);
  const digest = keccak_256(
    concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`), message),
  );
  const signed = secp256k1.sign(digest, key.secret, { prehash: false, format: 'recovered' });
  // noble puts the recovery byte first; Ethereum puts v = 27 + recovery last.
  const recovery = signed[0] ?? 0;
  return `0x${bytesToHex(signed.subarray(1))}${(27 + recovery).toString(16)}`;
}

function checksumAddress(address: Uint8Array): string {
  const lower = bytesToHex(address);
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i] ?? '';
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}
