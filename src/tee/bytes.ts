import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

/** A reply field that does not have the layout its format defines. Checks turn it into a failure. */
export class TeeFormatError extends Error {
  readonly code = 'tee_format';
  constructor(message: string) {
    super(message);
    this.name = 'TeeFormatError';
  }
}

/** Hex with or without `0x`, any case; `what` names the field in the error. */
export function fromHex(hex: string, what: string): Uint8Array {
  const clean = hex.trim().replace(/^0x/i, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(clean)) {
    throw new TeeFormatError(`${what} is not a hex string.`);
  }
  return hexToBytes(clean.toLowerCase());
}

export const toHex = (bytes: Uint8Array): string => bytesToHex(bytes);

export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === 'string' ? new TextEncoder().encode(data) : data));
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Little-endian cursor over a binary structure; every read says what it read when it runs out. */
export class ByteReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  take(length: number, field: string): Uint8Array {
    if (length > this.remaining) {
      throw new TeeFormatError(
        `${this.what} ends inside ${field}: needs ${length} bytes at offset ${this.offset}, has ${this.remaining}.`,
      );
    }
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  u8(field: string): number {
    return this.take(1, field)[0] ?? 0;
  }

  u16(field: string): number {
    const at = this.offset;
    this.take(2, field);
    return this.view.getUint16(at, true);
  }

  u24(field: string): number {
    const [a = 0, b = 0, c = 0] = this.take(3, field);
    return a | (b << 8) | (c << 16);
  }

  u32(field: string): number {
    const at = this.offset;
    this.take(4, field);
    return this.view.getUint32(at, true);
  }
}
