/**
 * A 2-D little-endian float32 array in NumPy's `.npy` format, version 1.0: the magic string, the
 * header length, a Python-literal header padded with spaces and a newline so the data starts on a
 * 64-byte boundary, then the numbers row by row. `numpy.load` reads it as shape (rows, columns).
 */
const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00]);

export function float32Npy(rows: readonly ArrayLike<number>[], columns: number): Buffer {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows.length}, ${columns}), }`;
  // magic (8) + header length (2) + header, padded so the whole prefix is a multiple of 64.
  const unpadded = MAGIC.length + 2 + dict.length + 1;
  const header = `${dict}${' '.repeat((64 - (unpadded % 64)) % 64)}\n`;
  const prefix = Buffer.alloc(MAGIC.length + 2 + header.length);
  MAGIC.copy(prefix);
  prefix.writeUInt16LE(header.length, MAGIC.length);
  prefix.write(header, MAGIC.length + 2, 'latin1');
  const data = Buffer.alloc(rows.length * columns * 4);
  rows.forEach((row, r) => {
    if (row.length !== columns) throw new Error(`row ${r} has ${row.length} numbers, not ${columns}`);
    for (let c = 0; c < columns; c++) data.writeFloatLE(row[c]!, (r * columns + c) * 4);
  });
  return Buffer.concat([prefix, data]);
}
