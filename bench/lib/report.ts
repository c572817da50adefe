import { readFile, writeFile } from 'node:fs/promises';
import type { Figure } from './figure.js';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });
const withUnit = (value: number | undefined, unit: string) =>
  value === undefined ? '—' : `${number(value)} ${unit}`;

function comparison(figure: Figure): string {
  if (figure.added !== undefined)
    return `${figure.added >= 0 ? '+' : ''}${number(figure.added)} ${figure.unit}`;
  if (figure.ratio !== undefined) return `${number(figure.ratio)}×`;
  return '—';
}

export function markdownTable(figures: Figure[]): string {
  const rows = figures.map((f) =>
    [
      f.measure,
      withUnit(f.orbit, f.unit),
      withUnit(f.baseline, f.unit),
      comparison(f),
      f.target ?? '—',
      f.pass === undefined ? '—' : f.pass ? 'pass' : '**FAIL**',
    ].join(' | '),
  );
  return ['| measure | orbit-mcp | baseline | ratio | target | pass |', '|---|---|---|---|---|---|', ...rows]
    .map((row) => (row.startsWith('|') ? row : `| ${row} |`))
    .join('\n');
}

/** Replaces what is between the bench markers of the file (docs/benchmarks.md), and nothing else. */
export async function writeReadmeBlock(path: string, body: string): Promise<void> {
  const readme = await readFile(path, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path} has no ${START} … ${END} block`);
  const next = `${readme.slice(0, start + START.length)}\n${body}\n${readme.slice(end)}`;
  if (next !== readme) await writeFile(path, next);
}

export async function writeResults(path: string, environment: Record<string, unknown>, figures: Figure[]) {
  await writeFile(path, `${JSON.stringify({ ...environment, figures }, null, 2)}\n`);
}
