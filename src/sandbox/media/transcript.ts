/** Deterministic transcripts for the transcription routes: words spread over the audio's length. */
const WORDS = 'the quick brown fox jumps over the lazy dog and then the sandbox says hello again'.split(' ');

export const TRANSCRIPT_WORDS: readonly string[] = WORDS;

/** Seconds of a PCM WAV from its header; other formats count as one minute. */
export function durationOf(data: Buffer): number {
  if (
    data.length > 44 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WAVE'
  ) {
    const byteRate = data.readUInt32LE(28);
    return byteRate > 0 ? (data.length - 44) / byteRate : 60;
  }
  return 60;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * About 2.5 words a second (4 to 16 words), with word timings and two speaker segments; each word
 * names its segment's speaker in `speaker_id` (the platform's reference, issue 32).
 */
export function transcriptOf(seconds: number) {
  const count = Math.max(4, Math.min(WORDS.length, Math.round(seconds * 2.5)));
  const step = seconds / count;
  const half = Math.ceil(count / 2);
  const words = WORDS.slice(0, count).map((text, i) => ({
    type: 'word',
    text,
    start: round(i * step),
    end: round((i + 0.8) * step),
    speaker_id: `speaker_${i < half ? 0 : 1}`,
  }));
  const segments = [words.slice(0, half), words.slice(half)]
    .filter((part) => part.length > 0)
    .map((part, i) => ({
      speaker: `speaker_${i}`,
      start: part[0]!.start,
      end: part.at(-1)!.end,
      text: part.map((w) => w.text).join(' '),
    }));
  return { text: words.map((w) => w.text).join(' '), words, segments };
}
