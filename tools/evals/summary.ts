import { z } from 'zod';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { leftOutNote, type UsableList, usableList } from '../../src/replies/usable-list.js';
import { EVALS, type Experiment, OutputItem, OutputPage, Score, scoreError, scoreState } from './replies.js';
import { AnyObject } from './shared.js';

/**
 * What an experiment's output items add up to: one score table line per candidate x scorer,
 * what the run cost, and the worst items with their reasons, capped so a result stays small.
 */

const MAX_WORST = 5;

const TableRow = z.object({
  candidate: z.string(),
  scorer: z.string(),
  mean: z.number().optional(),
  pass_rate: z.number().optional(),
  count: z.number(),
  failures: z.number(),
});
/** Output schemas cost tokens on every turn: the worst items go out as one readable line each. */
export const Summary = {
  table: z.array(AnyObject()).optional(),
  cost_usd: z.number().optional(),
  worst: z.array(z.string()).optional(),
  content_suppressed_reason: z.string().optional(),
  /** Output items or scores the platform sent that could not be read, named. */
  not_usable: z.string().optional(),
};
interface WorstItem {
  row: number;
  candidate: string;
  scorer: string;
  score: number | null;
  reason: string;
  input?: string;
  output?: string;
  order: number;
}
type SummaryOut = Omit<z.infer<z.ZodObject<typeof Summary>>, 'table'> & { table?: TableRow[] };
type TableRow = z.infer<typeof TableRow>;

/** "traces 12/60, scores 30/120", the line a person reads while a run goes on ("?" for a count not sent). */
export function progressLine(exp: Experiment): string {
  const p = exp.progress ?? {};
  const n = (v: number | undefined) => v ?? 0;
  const total = (v: number | undefined) => (v === undefined ? '?' : String(v));
  if (exp.status === 'queued')
    return `queued, ${total(p.total_traces)} traces and ${total(p.total_scores)} scores to run`;
  const failed = n(p.failed_traces) + n(p.failed_scores);
  return (
    `traces ${n(p.completed_traces) + n(p.failed_traces)}/${total(p.total_traces)}, ` +
    `scores ${n(p.completed_scores) + n(p.failed_scores)}/${total(p.total_scores)}` +
    (failed ? ` (${failed} failed)` : '')
  );
}

/** Share of the work units done (0 while the totals are not sent). */
export function fractionDone(exp: Experiment): number {
  const p = exp.progress ?? {};
  const n = (v: number | undefined) => v ?? 0;
  const total = n(p.total_traces) + n(p.total_scores);
  const done = n(p.completed_traces) + n(p.failed_traces) + n(p.completed_scores) + n(p.failed_scores);
  return total === 0 ? 0 : Math.min(1, done / total);
}

/**
 * Every output item of an experiment. The route lists no query (spec 2 §4.11; the platform's
 * reference sends no `limit`, issue 32): a page that says `has_more` is followed with `after`, its
 * last id, and the walk stops when a page brings nothing new (a platform that ignores `after`).
 */
export async function outputItems(ctx: ToolContext, id: string): Promise<UsableList<OutputItem>> {
  const items: UsableList<OutputItem> = { items: [], left_out: [] };
  const seen = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const res = await ctx.api.request({
      method: 'GET',
      path: `${EVALS}/experiments/${encodeURIComponent(id)}/output_items`,
      query: { after },
      schema: OutputPage,
    });
    const page = usableList(OutputItem, res.data.data);
    const fresh = page.items.filter((item) => item.id === undefined || !seen.has(item.id));
    for (const item of fresh) if (item.id !== undefined) seen.add(item.id);
    items.items.push(...fresh);
    items.left_out.push(...page.left_out);
    const last = res.data.last_id ?? page.items.at(-1)?.id;
    if (!res.data.has_more || !last || last === after || fresh.length === 0) return items;
    after = last;
  }
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** Names candidates by model, adding the candidate id where two share a model. */
function candidateLabels(items: OutputItem[]): Map<string, string> {
  const models = new Map<string, string>();
  for (const item of items) {
    const key = item.candidate_id ?? item.model ?? '?';
    if (!models.has(key)) models.set(key, item.model ?? key);
  }
  const labels = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const model of models.values()) counts.set(model, (counts.get(model) ?? 0) + 1);
  for (const [key, model] of models)
    labels.set(key, (counts.get(model) ?? 0) > 1 ? `${model} (${key})` : model);
  return labels;
}

/** The scorer a score belongs to, or undefined when it names none (then it cannot be tabled). */
const scorerOf = (score: Score): string | undefined =>
  score.scorer_id ?? score.scorer ?? (typeof score.name === 'string' ? score.name : undefined);

export function summarize({ items, left_out }: UsableList<OutputItem>): SummaryOut {
  const leftOut = [...left_out];
  const labels = candidateLabels(items);
  const cells = new Map<
    string,
    { candidate: string; scorer: string; scores: number[]; passed: number; judged: number; failures: number }
  >();
  const bad: WorstItem[] = [];
  let cost = 0;
  const suppressed = new Set<string>();
  items.forEach((item, position) => {
    const candidate = labels.get(item.candidate_id ?? item.model ?? '?')!;
    cost += item.cost_usd ?? item.trace?.cost_usd ?? 0;
    const reason = item.content_suppressed_reason ?? item.trace?.metadata?.content_suppressed_reason;
    if (reason) suppressed.add(reason);
    const scores = usableList(Score, item.scores ?? [], {
      nameKeys: ['scorer_id', 'scorer', 'name'],
      usable: (s) => (scorerOf(s) ? undefined : 'names no scorer'),
    });
    leftOut.push(
      ...scores.left_out.map((l) => ({
        ...l,
        name: `row ${(item.item_index ?? position) + 1} score ${l.name}`,
      })),
    );
    for (const s of scores.items) {
      const scorer = scorerOf(s)!;
      const state = scoreState(s);
      const key = `${candidate}\u0000${scorer}`;
      const cell = cells.get(key) ?? {
        candidate,
        scorer,
        scores: [],
        passed: 0,
        judged: 0,
        failures: 0,
      };
      cells.set(key, cell);
      const failed = state === 'failed';
      if (failed) cell.failures += 1;
      else if (state === 'completed' && typeof s.score === 'number') {
        cell.scores.push(s.score);
        if (typeof s.passed === 'boolean') {
          cell.judged += 1;
          if (s.passed) cell.passed += 1;
        }
      }
      if (failed || (state === 'completed' && typeof s.score === 'number' && s.score < 1)) {
        bad.push({
          order: bad.length,
          row: (item.item_index ?? position) + 1,
          candidate,
          scorer,
          score: failed ? null : (s.score ?? null),
          reason: clip((failed ? scoreError(s) : s.reasoning) ?? (failed ? 'failed' : ''), 200),
          ...(item.input !== undefined ? { input: clip(asText(item.input), 120) } : {}),
          ...(item.output != null && item.output !== '' ? { output: clip(asText(item.output), 160) } : {}),
        });
      }
    }
  });
  const notUsable = leftOutNote('output item or score', leftOut);
  const table = [...cells.values()].map((c) => ({
    candidate: c.candidate,
    scorer: c.scorer,
    ...(c.scores.length ? { mean: round(c.scores.reduce((a, b) => a + b, 0) / c.scores.length, 3) } : {}),
    ...(c.judged ? { pass_rate: round(c.passed / c.judged, 3) } : {}),
    count: c.scores.length,
    failures: c.failures,
  }));
  // Failed scores first (they say what broke), then the lowest scores.
  bad.sort((a, b) => (a.score ?? -1) - (b.score ?? -1) || a.order - b.order);
  return {
    table,
    cost_usd: round(cost, 6),
    ...(bad.length ? { worst: bad.slice(0, MAX_WORST).map(worstLine) } : {}),
    ...(suppressed.size ? { content_suppressed_reason: [...suppressed].join(', ') } : {}),
    ...(notUsable ? { not_usable: notUsable } : {}),
  };
}

/** `row 2, gpt-mini, llm_judge: 0.33: <reason> | input: "..." | output: "..."`, each part when sent. */
function worstLine(w: WorstItem): string {
  const input = w.input === undefined ? '' : ` | input: ${JSON.stringify(w.input)}`;
  const output = w.output === undefined ? '' : ` | output: ${JSON.stringify(w.output)}`;
  return `row ${w.row}, ${w.candidate}, ${w.scorer}: ${w.score ?? 'failed'}: ${w.reason}${input}${output}`;
}

/** The result as text: status, the table, cost, the worst items. */
export function summaryText(
  r: { experiment_id: string; status: string; progress: string; error?: string; next?: string } & Omit<
    SummaryOut,
    'table'
  > & { table?: Record<string, unknown>[] },
): string {
  // The listed schema leaves the table's columns out (tokens); the rows are ours, read back typed.
  const table = z
    .array(TableRow)
    .catch([])
    .parse(r.table ?? []);
  const lines = [
    `Experiment ${r.experiment_id}: ${r.status} (${r.progress})${r.cost_usd !== undefined ? `, cost ${r.cost_usd} USD` : ''}`,
  ];
  if (r.error) lines.push(`Error: ${r.error}`);
  if (table.length) {
    lines.push('| candidate | scorer | mean | pass rate | scored | failed |', '|---|---|---|---|---|---|');
    for (const t of table) {
      const rate = t.pass_rate === undefined ? '-' : `${round(t.pass_rate * 100, 1)}%`;
      lines.push(
        `| ${t.candidate} | ${t.scorer} | ${t.mean ?? '-'} | ${rate} | ${t.count} | ${t.failures} |`,
      );
    }
  }
  if (r.worst?.length) {
    lines.push('Worst:');
    for (const w of r.worst) lines.push(`- ${w}`);
  }
  if (r.content_suppressed_reason) lines.push(`Content not stored: ${r.content_suppressed_reason}`);
  if (r.not_usable) lines.push(`Left out: ${r.not_usable}`);
  if (r.next) lines.push(`Still running. Next: call ${r.next}.`);
  return lines.join('\n');
}
