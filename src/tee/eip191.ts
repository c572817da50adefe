import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { fromHex, TeeFormatError, toHex } from './bytes.js';

/**
 * EIP-191 version 0x45 (`personal_sign`): keccak256("\x19Ethereum Signed Message:\n" + byte length
 * + message). The length is the message's UTF-8 byte count in decimal.
 */
export function personalMessageHash(message: string | Uint8Array): Uint8Array {
  const bytes = typeof message === 'string' ? utf8ToBytes(message) : message;
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${bytes.length}`), bytes));
}

/** The Ethereum address of an uncompressed secp256k1 public key: the last 20 bytes of its keccak. */
function addressOfPublicKey(publicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return toChecksumAddress(toHex(keccak_256(point.subarray(1)).subarray(12)));
}

/** EIP-55 mixed-case checksum spelling of a 20-byte address. */
export function toChecksumAddress(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new TeeFormatError(`"${address}" is not a 20-byte hex address.`);
  const hash = toHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const char = lower[i] ?? '';
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/**
 * Recovers the signer of a `personal_sign` signature: 65 bytes r || s || v as hex, v being 27/28
 * (or 0/1). Throws `TeeFormatError` when the signature cannot be parsed or recovers no key.
 */
export function recoverPersonalSigner(message: string | Uint8Array, signatureHex: string): string {
  const bytes = fromHex(signatureHex, 'The signature');
  if (bytes.length !== 65)
    throw new TeeFormatError(`The signature is ${bytes.length} bytes, not 65 (r || s || v).`);
  const v = bytes[64] ?? 0;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1)
    throw new TeeFormatError(`The signature's v byte ${v} is not 27 or 28.`);
  try {
    const signature = secp256k1.Signature.fromBytes(bytes.subarray(0, 64), 'compact').addRecoveryBit(
      recovery,
    );
    const point = signature.recoverPublicKey(personalMessageHash(message));
    return addressOfPublicKey(point.toBytes(false));
  } catch (error) {
    throw new TeeFormatError(
      `No signer can be recovered: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Case-insensitive address equality (checksummed and lower-case spellings are the same address). */
export const sameAddress = (a: string, b: string): boolean =>
  a.toLowerCase().replace(/^0x/, '') === b.toLowerCase().replace(/^0x/, '');
