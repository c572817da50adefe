/** The client × transport × era table, as markdown (CI logs and the closing note read the same). */
import type { Case, Cell, WorkerResult } from './types.js';

export interface Row {
  case: Case | { id: string; client: string; transport: string; era: string; node: string };
  result?: WorkerResult;
  strict?: Cell;
  /** The whole row skipped, with the reason (printed, never silent). */
  skipped?: string;
}

const TRANSPORT: Record<string, string> = {
  stdio: 'stdio',
  http: 'HTTP',
  'http-stateless': 'HTTP --stateless',
};

export function render(rows: Row[]): string {
  const head = [
    'client',
    'version',
    'node',
    'transport',
    'era (wire)',
    'list',
    'strict',
    'chat + progress',
    'web_search',
    'image',
  ];
  const lines = [row(head), row(head.map(() => '---'))];
  for (const { case: c, result, strict, skipped } of rows) {
    const transport = (c.client === 'mcp-remote' ? 'stdio→' : '') + (TRANSPORT[c.transport] ?? c.transport);
    if (skipped) {
      lines.push(
        row([c.client, '', String(c.node), transport, c.era, `skipped: ${skipped}`, '', '', '', '']),
      );
      continue;
    }
    lines.push(
      row([
        c.client,
        result?.version ?? '?',
        result?.node ?? String(c.node),
        transport,
        eraCell(c.era, result?.wireEra),
        show(result?.list),
        show(strict),
        show(result?.chat),
        show(result?.search),
        show(result?.image),
      ]),
    );
  }
  return lines.join('\n');
}

/** Expected era against the one seen on the wire. */
export function eraMatches(era: string, wire: string | undefined): boolean {
  return era === 'modern' ? wire === '2026-07-28' : !!wire?.startsWith('2025-');
}

function eraCell(era: string, wire: string | undefined): string {
  return eraMatches(era, wire) ? `✓ ${wire}` : `✗ expected ${era}, saw ${wire ?? 'nothing'}`;
}

function show(cell: Cell | undefined): string {
  if (!cell) return '✗ not run';
  const mark = cell.status === 'pass' ? '✓' : cell.status === 'n/a' ? 'n/a' : '✗';
  return cell.note ? `${mark} ${cell.note}` : mark;
}

function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}
