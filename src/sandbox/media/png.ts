import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG (8-bit RGB): a diagonal gradient whose colours come from a seed, so one prompt always
 * gives the same image and two prompts give different ones.
 */
export function makePng(width: number, height: number, seed: number): Buffer {
  const [r0, g0, b0] = [seed & 0xff, (seed >>> 8) & 0xff, (seed >>> 16) & 0xff];
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = Math.floor(((x + y) * 255) / Math.max(1, width + height - 2));
      const offset = y * row + 1 + x * 3;
      raw[offset] = (r0 + t) & 0xff;
      raw[offset + 1] = (g0 + (y * 255) / Math.max(1, height - 1)) & 0xff;
      raw[offset + 2] = (b0 + 255 - t) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // depth 8, colour type RGB, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Width and height from `1024x1024`, or from an aspect ratio at about 1024 pixels on the long side. */
export function imageSize(resolution: string | undefined, aspectRatio: string | undefined): [number, number] {
  const res = /^(\d{2,4})x(\d{2,4})$/.exec(resolution ?? '');
  if (res) return [Number(res[1]), Number(res[2])];
  const ratio = /^(\d+):(\d+)$/.exec(aspectRatio ?? '');
  if (!ratio) return [1024, 1024];
  const [w, h] = [Number(ratio[1]), Number(ratio[2])];
  return w >= h ? [1024, Math.round((1024 * h) / w)] : [Math.round((1024 * w) / h), 1024];
}
