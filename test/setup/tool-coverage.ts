/**
 * Every tool must have an end-to-end happy path and an isError path: the harness records the
 * outcome of each call it makes (test/helpers/harness.ts), and after a whole run this teardown
 * fails the run when a tool was never seen succeeding or never seen failing. Checked only when the
 * whole suite runs (`npm test` sets ORBIT_TOOL_COVERAGE=1); a run of a few files says nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import catalog from '../../tools/catalog.json' with { type: 'json' };

declare module 'vitest' {
  export interface ProvidedContext {
    toolCoverageDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'orbit-tool-coverage-'));
  project.provide('toolCoverageDir', dir);
  return () => {
    try {
      if (process.env.ORBIT_TOOL_COVERAGE !== '1') return;
      const seen = new Map<string, { ok: number; error: number }>();
      for (const file of readdirSync(dir)) {
        for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
          const { tool, isError } = JSON.parse(line) as { tool: string; isError: boolean };
          const counts = seen.get(tool) ?? { ok: 0, error: 0 };
          counts[isError ? 'error' : 'ok']++;
          seen.set(tool, counts);
        }
      }
      const missing = catalog.flatMap(({ name }) => {
        const counts = seen.get(name);
        const gaps = [!counts?.ok && 'a happy path', !counts?.error && 'an isError path'].filter(Boolean);
        return gaps.length ? [`${name}: no end-to-end call with ${gaps.join(' or ')}`] : [];
      });
      if (missing.length) {
        // A thrown error here is printed but does not fail the run: the exit code does.
        process.stderr.write(`\nTools without end-to-end coverage:\n  ${missing.join('\n  ')}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(
        `tool coverage: every one of ${catalog.length} tools has a happy and an isError path\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
