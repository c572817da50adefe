/** One row of the results: a measure of orbit-mcp, its baseline from the same run, and the target. */
export interface Figure {
  id: string;
  measure: string;
  unit: string;
  orbit: number;
  baseline?: number;
  /** orbit / baseline, for figures judged as a ratio. */
  ratio?: number;
  /** orbit − baseline in `unit`, for figures judged as an added cost. */
  added?: number;
  /** Human-readable target, e.g. `≤ 1.25×`; absent when the figure is reported for context. */
  target?: string;
  pass?: boolean;
  details?: Record<string, unknown>;
}
