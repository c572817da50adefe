/**
 * A real MP4 a player opens: H.264 Baseline, every frame an IDR picture made of I_PCM macroblocks
 * (raw samples, so no encoder is needed), in an ISO BMFF container (ftyp, moov, mdat).
 */

class Bits {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  bit(value: number): this {
    this.current = (this.current << 1) | (value & 1);
    this.used += 1;
    if (this.used === 8) this.flush();
    return this;
  }
  u(width: number, value: number): this {
    for (let i = width - 1; i >= 0; i--) this.bit((value >>> i) & 1);
    return this;
  }
  /** Exp-Golomb, unsigned. */
  ue(value: number): this {
    const code = value + 1;
    const length = Math.floor(Math.log2(code));
    return this.u(length, 0).u(length + 1, code);
  }
  se(value: number): this {
    return this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  align(): this {
    while (this.used !== 0) this.bit(0);
    return this;
  }
  byte(value: number): this {
    this.bytes.push(value & 0xff);
    return this;
  }
  /** rbsp_trailing_bits: a one, then zeros to the byte boundary. */
  trailing(): Buffer {
    this.bit(1).align();
    return Buffer.from(this.bytes);
  }
  private flush() {
    this.bytes.push(this.current & 0xff);
    this.current = 0;
    this.used = 0;
  }
}

/** NAL unit: header byte plus the payload with emulation-prevention bytes inserted. */
function nal(header: number, rbsp: Buffer): Buffer {
  const out: number[] = [header];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

const PROFILE = 66;
const LEVEL = 30;

function sps(mbWide: number, mbHigh: number): Buffer {
  const b = new Bits().u(8, PROFILE).u(8, 0xc0).u(8, LEVEL).ue(0); // constraint_set0+1; sps id 0
  b.ue(0).ue(2).ue(1).bit(0); // log2_max_frame_num-4, poc type 2, one ref frame, no gaps
  b.ue(mbWide - 1)
    .ue(mbHigh - 1)
    .bit(1)
    .bit(1)
    .bit(0)
    .bit(0); // size, frame_mbs_only, 8x8 inference, no crop, no VUI
  return nal(0x67, b.trailing());
}

function pps(): Buffer {
  const b = new Bits().ue(0).ue(0).bit(0).bit(0).ue(0).ue(0).ue(0).bit(0).u(2, 0); // CAVLC, one slice group
  b.se(0).se(0).se(0).bit(1).bit(0).bit(0); // qp offsets, deblocking control present
  return nal(0x68, b.trailing());
}

function idrSlice(mbWide: number, mbHigh: number, frame: number, seed: number): Buffer {
  const b = new Bits()
    .ue(0)
    .ue(7)
    .ue(0)
    .u(4, 0)
    .ue(frame % 65_536); // first mb, I slice, pps, frame_num, idr_pic_id
  b.bit(0).bit(0).se(0).ue(1); // dec_ref_pic_marking, qp delta, deblocking off
  const hue = seed % 200;
  for (let my = 0; my < mbHigh; my++) {
    for (let mx = 0; mx < mbWide; mx++) {
      b.ue(25).align(); // mb_type I_PCM, then byte-aligned raw samples
      for (let y = 0; y < 16; y++) {
        for (let x = 0; x < 16; x++) {
          const px = mx * 16 + x;
          const py = my * 16 + y;
          b.byte(16 + ((px * 3 + py * 2 + frame * 6) % 220)); // a diagonal band that moves
        }
      }
      for (let i = 0; i < 64; i++) b.byte(40 + hue); // Cb
      for (let i = 0; i < 64; i++) b.byte(200 - hue / 2); // Cr
    }
  }
  return nal(0x65, b.trailing());
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
const full = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, u32((version << 24) | flags), ...parts);
function u32(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => {
    out.writeUInt32BE(v >>> 0, i * 4);
  });
  return out;
}
function u16(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => {
    out.writeUInt16BE(v & 0xffff, i * 2);
  });
  return out;
}
const MATRIX = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);

/** Frame size in pixels for an aspect ratio (multiples of 16: whole macroblocks). */
function videoSize(aspectRatio: string | undefined): [number, number] {
  const sizes: Record<string, [number, number]> = {
    '16:9': [112, 64],
    '9:16': [64, 112],
    '1:1': [64, 64],
    '4:3': [64, 48],
    '3:4': [48, 64],
  };
  return sizes[aspectRatio ?? '16:9'] ?? [112, 64];
}

export function makeMp4(options: {
  seconds: number;
  aspectRatio?: string;
  seed: number;
  fps?: number;
}): Buffer {
  const fps = options.fps ?? 8;
  const [width, height] = videoSize(options.aspectRatio);
  const [mbWide, mbHigh] = [width / 16, height / 16];
  const count = Math.max(1, Math.round(options.seconds * fps));
  const spsNal = sps(mbWide, mbHigh);
  const ppsNal = pps();
  const samples = Array.from({ length: count }, (_, i) => {
    const slice = idrSlice(mbWide, mbHigh, i, options.seed);
    return Buffer.concat([u32(slice.length), slice]);
  });
  const timescale = 1000;
  const delta = Math.round(timescale / fps);
  const duration = delta * count;

  const avcC = box(
    'avcC',
    Buffer.from([1, PROFILE, 0xc0, LEVEL, 0xff, 0xe1]),
    u16(spsNal.length),
    spsNal,
    Buffer.from([1]),
    u16(ppsNal.length),
    ppsNal,
  );
  const compressor = Buffer.alloc(32);
  const avc1 = box(
    'avc1',
    Buffer.alloc(6),
    u16(1, 0, 0),
    Buffer.alloc(12),
    u16(width, height),
    u32(0x480000, 0x480000, 0),
    u16(1),
    compressor,
    u16(0x18, 0xffff),
    avcC,
  );
  const stbl = (chunkOffset: number) =>
    box(
      'stbl',
      full('stsd', 0, 0, u32(1), avc1),
      full('stts', 0, 0, u32(1, count, delta)),
      full('stsc', 0, 0, u32(1, 1, count, 1)),
      full('stsz', 0, 0, u32(0, count, ...samples.map((s) => s.length))),
      full('stco', 0, 0, u32(1, chunkOffset)),
    );
  const moov = (chunkOffset: number) =>
    box(
      'moov',
      full(
        'mvhd',
        0,
        0,
        u32(0, 0, timescale, duration, 0x10000),
        u16(0x100, 0),
        Buffer.alloc(8),
        MATRIX,
        Buffer.alloc(24),
        u32(2),
      ),
      box(
        'trak',
        full(
          'tkhd',
          0,
          3,
          u32(0, 0, 1, 0, duration),
          Buffer.alloc(8),
          u16(0, 0, 0, 0),
          MATRIX,
          u32(width << 16, height << 16),
        ),
        box(
          'mdia',
          full('mdhd', 0, 0, u32(0, 0, timescale, duration), u16(0x55c4, 0)),
          full(
            'hdlr',
            0,
            0,
            u32(0),
            Buffer.from('vide', 'latin1'),
            Buffer.alloc(12),
            Buffer.from('VideoHandler\0', 'latin1'),
          ),
          box(
            'minf',
            full('vmhd', 0, 1, u16(0, 0, 0, 0)),
            box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1))),
            stbl(chunkOffset),
          ),
        ),
      ),
    );
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2avc1mp41', 'latin1'),
  );
  const moovSize = moov(0).length;
  const mdat = box('mdat', ...samples);
  return Buffer.concat([ftyp, moov(ftyp.length + moovSize + 8), mdat]);
}
