// The CI shell scripts run under `set -o pipefail`. There, `producer | grep -q pattern` fails at
// random: grep exits at its first match, the producer's next write meets a closed pipe (SIGPIPE,
// status 141) and the whole pipeline fails even though the line was found. It failed the container
// step once ("no drain in the logs" above a log that held the drain). Read the output first
// (`grep -q pattern <<<"$(producer)"`) instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function shellScripts(): string[] {
  const scripts = readdirSync(join(root, 'scripts'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.sh'))
    .map((name) => join('scripts', name));
  return [...scripts, join('.ci', 'run')];
}

/** Lines that pipe into a reader that may stop before the writer is done. */
function earlyClosingPipes(source: string): string[] {
  if (!/set -[a-z]*o pipefail/.test(source)) return [];
  return source
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .filter((line) => /(?<!\|)\|(?!\|)\s*(grep\s+(-[a-zA-Z]*[qm]|--quiet|--max-count)|head\b)/.test(line));
}

describe('shell scripts under pipefail', () => {
  it('finds the pattern that failed the container step', () => {
    const old = "set -euo pipefail\npodman logs one 2>&1 | grep -q 'drained' || fail 'no drain'\n";
    expect(earlyClosingPipes(old)).toHaveLength(1);
    expect(
      earlyClosingPipes('set -euo pipefail\ngrep -q \'drained\' <<<"$(podman logs one 2>&1)"\n'),
    ).toEqual([]);
    expect(earlyClosingPipes('set -euo pipefail\n[[ -e $f ]] || grep -q x "$f"\n')).toEqual([]);
  });

  it.each(shellScripts())('%s never pipes into grep -q or head', (file) => {
    expect(earlyClosingPipes(readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });
});
