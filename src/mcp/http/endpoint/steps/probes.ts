import type { Step } from '../chain.js';
import type { createProbes } from '../probes.js';

/** Liveness and readiness come first: a probe sends whatever Host its platform likes. */
export function probesStep(probe: ReturnType<typeof createProbes>): Step {
  return (r) => r.url !== undefined && probe(r.res, r.url);
}
