import { readFile, writeFile } from 'node:fs/promises';
import type { Figure } from './figure.js';

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

/** Replaces what is between the `<!-- {block}:start/end -->` markers of the file, and nothing else. */
export async function writeReadmeBlock(path: string, body: string, block = 'bench'): Promise<void> {
  const [start, end] = [`<!-- ${block}:start -->`, `<!-- ${block}:end -->`];
  const readme = await readFile(path, 'utf8');
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${path} has no ${start} … ${end} block`);
  const next = `${readme.slice(0, from + start.length)}\n${body}\n${readme.slice(to)}`;
  if (next !== readme) await writeFile(path, next);
}

/** The rows the README shows (the whole table is in docs/benchmarks.md). */
const HEADLINE = [
  'cold_start',
  'rss_after_tools_list',
  'tokens_all',
  'retrieval_top1_all',
  'retrieval_top3_all',
  'chat_added_p50_json',
  'chat_added_p50_stream',
  'web_search_added_p50',
  'http_rps_legacy',
  'http_rps_modern',
  'soak_rss_stdio',
  'soak_rss_stdio_invalid',
  'soak_rss',
];

/** The README's short table: the headline rows, and where the rest is. */
export function readmeSummary(figures: Figure[], measuredOn: string): string {
  const headline = figures.filter((figure) => HEADLINE.includes(figure.id));
  return `${markdownTable(headline)}\n\n${measuredOn}; every figure, the baselines and where the time goes: [docs/benchmarks.md](docs/benchmarks.md), [bench/NOTES.md](bench/NOTES.md).`;
}

export async function writeResults(path: string, environment: Record<string, unknown>, figures: Figure[]) {
  await writeFile(path, `${JSON.stringify({ ...environment, figures }, null, 2)}\n`);
}
