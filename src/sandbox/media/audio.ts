/** Real audio: a PCM WAV tone, and MP3 made of valid silent MPEG-1 Layer III frames. */

const RATE = 16_000;

/** 16-bit mono PCM WAV: a soft tone whose pitch comes from the seed. */
export function makeWav(seconds: number, seed: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * RATE));
  const data = Buffer.alloc(samples * 2);
  const hz = 220 + (seed % 440);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 800, (samples - i) / 800);
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / RATE) * 8000 * fade), i * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8, 'latin1');
  head.write('fmt ', 12, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono; zeroed side info and data decode as silence. */
const FRAME_BYTES = 417;
const FRAME_SECONDS = 1152 / 44_100;

export function makeMp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.round(seconds / FRAME_SECONDS));
  const frame = Buffer.alloc(FRAME_BYTES);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** Seconds of speech for a text, at about 15 characters a second, between 0.5 and 8 s. */
export function speechSeconds(text: string): number {
  return Math.min(8, Math.max(0.5, text.length / 15));
}
