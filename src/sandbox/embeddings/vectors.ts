/**
 * Deterministic text embeddings whose similarities mean something: a hashed bag of word stems,
 * word pairs and character trigrams, L2-normalized. Texts that share words or word parts score
 * higher than texts that do not; different models hash differently.
 */
const STOPWORDS = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the this to was were what when where which who why will with you your'.split(
    ' ',
  ),
);

/** FNV-1a, 32 bits, with murmur3's finalizer: FNV alone leaves its low bits badly mixed. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A light stemmer, so "orbits", "orbiting" and "orbital" share most features with "orbit". */
function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's', 'al', 'ly']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

function features(text: string): [string, number][] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
  const out: [string, number][] = [];
  words.forEach((word, i) => {
    out.push([`w:${word}`, 1]);
    const padded = `#${word}#`;
    for (let j = 0; j + 3 <= padded.length; j++) out.push([`t:${padded.slice(j, j + 3)}`, 0.3]);
    const next = words[i + 1];
    if (next) out.push([`b:${word} ${next}`, 0.5]);
  });
  return out.length > 0 ? out : [[`empty:${text}`, 1]];
}

/** The unit vector of `text` with `dimensions` components, for one model. */
export function embedText(text: string, dimensions: number, model: string): Float32Array {
  const vector = new Float64Array(dimensions);
  for (const [feature, weight] of features(text)) {
    const hash = hash32(`${model}|${feature}`);
    const sign = hash32(`${model}|${feature}|sign`) & 1 ? 1 : -1;
    vector[hash % dimensions]! += sign * weight;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (value) => value / norm);
}

/** Little-endian float32 bytes, base64: what `encoding_format: "base64"` returns. */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, value] of vector.entries()) bytes.writeFloatLE(value, i * 4);
  return bytes.toString('base64');
}
