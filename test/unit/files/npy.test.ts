import { describe, expect, it } from 'vitest';
import { float32Npy } from '../../../src/files/npy.js';

/** Reads a .npy v1.0 file the way numpy.lib.format does: magic, header length, header, data. */
function readNpy(file: Buffer) {
  expect(file.subarray(0, 6).toString('latin1')).toBe('\x93NUMPY');
  expect([file[6], file[7]]).toEqual([1, 0]);
  const length = file.readUInt16LE(8);
  const header = file.subarray(10, 10 + length).toString('latin1');
  const shape = /'shape': \((\d+), (\d+)\)/.exec(header);
  return {
    header,
    offset: 10 + length,
    shape: [Number(shape?.[1]), Number(shape?.[2])],
    value: (i: number) => file.readFloatLE(10 + length + i * 4),
  };
}

describe('float32Npy', () => {
  it('writes a header numpy reads: descr <f4, C order, the shape, data on a 64-byte boundary', () => {
    const file = float32Npy([new Float32Array([0.5, -1.25, 3]), [1, 2, 4]], 3);
    const npy = readNpy(file);
    expect(npy.header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    expect(npy.offset % 64).toBe(0);
    expect(npy.shape).toEqual([2, 3]);
    expect(file.length).toBe(npy.offset + 2 * 3 * 4);
    expect([0, 1, 2, 3, 4, 5].map(npy.value)).toEqual([0.5, -1.25, 3, 1, 2, 4]);
  });

  it('pads the header to 64 bytes whatever the shape digits', () => {
    for (const rows of [1, 12, 2048]) {
      const file = float32Npy(
        Array.from({ length: rows }, () => [0]),
        1,
      );
      expect(readNpy(file).offset % 64).toBe(0);
    }
  });

  it('refuses rows of different lengths', () => {
    expect(() => float32Npy([[1, 2], [3]], 2)).toThrow(/row 1 has 1 numbers/);
  });
});
