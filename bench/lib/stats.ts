/** Nearest-rank percentile of a sample (p in 0..100); the sample is not modified. */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const median = (sample: readonly number[]): number => percentile(sample, 50);

/** Rounds for display and JSON: figures carry no more digits than the measurement supports. */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
