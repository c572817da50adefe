/**
 * Every tool must have an end-to-end happy path and an isError path: the harness records the
 * outcome of each call it makes (test/helpers/harness.ts), and after a whole run this teardown
 * fails the run when a tool was never seen succeeding or never seen failing. Checked only when the
 * whole suite runs (`npm test` sets ORBIT_TOOL_COVERAGE=1); a run of a few files says nothing.
 *
 * A suite skipped for the reason the README gives (no Chromium outside CI) is named at the end, and
 * a gap in a tool that only such a suite calls is reported but does not fail the run: with CI=true
 * those suites never skip, so CI still holds every tool to the rule.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import catalog from '../../tools/catalog.json' with { type: 'json' };
import type { SkippedSuite } from '../helpers/harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    toolCoverageDir: string;
  }
}

type Line = { tool: string; isError: boolean } | { skipped: SkippedSuite };

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'orbit-tool-coverage-'));
  project.provide('toolCoverageDir', dir);
  return () => {
    try {
      if (process.env.ORBIT_TOOL_COVERAGE !== '1') return;
      const seen = new Map<string, { ok: number; error: number }>();
      const skipped = new Map<string, SkippedSuite>();
      for (const file of readdirSync(dir)) {
        for (const text of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
          const line = JSON.parse(text) as Line;
          if ('skipped' in line) {
            skipped.set(`${line.skipped.file}\0${line.skipped.suite}`, line.skipped);
            continue;
          }
          const counts = seen.get(line.tool) ?? { ok: 0, error: 0 };
          counts[line.isError ? 'error' : 'ok']++;
          seen.set(line.tool, counts);
        }
      }
      const excused = new Set([...skipped.values()].flatMap((suite) => suite.tools));
      const gaps = catalog.flatMap(({ name }) => {
        const counts = seen.get(name);
        const missing = [!counts?.ok && 'a happy path', !counts?.error && 'an isError path'].filter(Boolean);
        return missing.length
          ? [{ name, line: `${name}: no end-to-end call with ${missing.join(' or ')}` }]
          : [];
      });
      if (skipped.size) {
        const names = [...skipped.values()].map((s) => `  ${relative(process.cwd(), s.file)}: ${s.suite}`);
        const reasons = [...new Set([...skipped.values()].map((s) => s.reason))];
        process.stdout.write(
          `\nSkipped suites (${skipped.size}):\n${names.join('\n')}\nWhy: ${reasons.join(' ')}\n`,
        );
      }
      const unexcused = gaps.filter((gap) => !excused.has(gap.name));
      const waived = gaps.filter((gap) => excused.has(gap.name));
      if (waived.length) {
        process.stdout.write(
          `Not checked in this run (only the skipped suites cover them):\n  ${waived.map((g) => g.line).join('\n  ')}\n`,
        );
      }
      if (unexcused.length) {
        // A thrown error here is printed but does not fail the run: the exit code does.
        process.stderr.write(
          `\nTools without end-to-end coverage:\n  ${unexcused.map((g) => g.line).join('\n  ')}\n`,
        );
        process.exitCode = 1;
        return;
      }
      const checked = catalog.length - waived.length;
      process.stdout.write(
        waived.length
          ? `tool coverage: ${checked} of ${catalog.length} tools have a happy and an isError path; ${waived.length} left to the skipped suites\n`
          : `tool coverage: every one of ${catalog.length} tools has a happy and an isError path\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
