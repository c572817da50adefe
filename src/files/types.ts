/** Media types by their first bytes; names and extensions come from content, never from headers. */
export interface Sniffed {
  mimeType: string;
  ext: string;
}

const startsWith = (data: Buffer, bytes: number[], offset = 0): boolean =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
const ascii = (data: Buffer, text: string, offset = 0): boolean =>
  data.length >= offset + text.length && data.toString('latin1', offset, offset + text.length) === text;

export function sniff(data: Buffer): Sniffed | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mimeType: 'image/png', ext: 'png' };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { mimeType: 'image/jpeg', ext: 'jpg' };
  if (ascii(data, 'GIF87a') || ascii(data, 'GIF89a')) return { mimeType: 'image/gif', ext: 'gif' };
  if (ascii(data, 'RIFF') && ascii(data, 'WEBP', 8)) return { mimeType: 'image/webp', ext: 'webp' };
  if (ascii(data, 'RIFF') && ascii(data, 'WAVE', 8)) return { mimeType: 'audio/wav', ext: 'wav' };
  if (ascii(data, 'ID3') || (data.length > 1 && data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0)) {
    return { mimeType: 'audio/mpeg', ext: 'mp3' };
  }
  if (ascii(data, 'OggS')) return { mimeType: 'audio/ogg', ext: 'ogg' };
  if (ascii(data, 'fLaC')) return { mimeType: 'audio/flac', ext: 'flac' };
  if (ascii(data, 'ftyp', 4)) {
    const brand = data.toString('latin1', 8, 12);
    if (brand.startsWith('M4A')) return { mimeType: 'audio/mp4', ext: 'm4a' };
    if (brand === 'qt  ') return { mimeType: 'video/quicktime', ext: 'mov' };
    return { mimeType: 'video/mp4', ext: 'mp4' };
  }
  if (startsWith(data, [0x1a, 0x45, 0xdf, 0xa3])) return { mimeType: 'video/webm', ext: 'webm' };
  if (ascii(data, '%PDF')) return { mimeType: 'application/pdf', ext: 'pdf' };
  return undefined;
}

const BY_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'application/json': 'json',
  'application/x-npy': 'npy',
  'text/plain': 'txt',
};
const BY_EXT: Record<string, string> = Object.fromEntries(
  Object.entries(BY_MIME).map(([mime, ext]) => [ext, mime]),
);
BY_EXT.jpeg = 'image/jpeg';
BY_EXT.wav = 'audio/wav';
BY_EXT.mp3 = 'audio/mpeg';

/** Content first; a declared type or a file name only when the bytes say nothing. */
export function mediaTypeOf(data: Buffer, declared?: string, name?: string): Sniffed {
  const sniffed = sniff(data);
  if (sniffed) return sniffed;
  const mime = declared?.split(';')[0]?.trim().toLowerCase();
  if (mime && BY_MIME[mime]) return { mimeType: mime, ext: BY_MIME[mime] };
  const ext = name?.split('.').pop()?.toLowerCase();
  if (ext && BY_EXT[ext]) return { mimeType: BY_EXT[ext], ext };
  return {
    mimeType: mime && mime !== 'application/octet-stream' ? mime : 'application/octet-stream',
    ext: 'bin',
  };
}
