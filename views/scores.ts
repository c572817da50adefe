/**
 * eval_run / evals_read experiments: candidates × scorers with means and pass rates, a heat map,
 * and rows that expand to the worst items and, when the run stored them, the outputs.
 */
import { h, list, plain, record, startView, str, usd, type View } from './shared/view.js';

const main = document.getElementById('view')!;
document.head.append(
  h(
    'style',
    {},
    'td.cell{font-variant-numeric:tabular-nums;color:#111}tr.detail td{background:var(--bg2)}.scroll{overflow-x:auto}',
  ),
);

interface Cell {
  candidate: string;
  scorer: string;
  mean?: number;
  pass_rate?: number;
  count?: number;
  failures?: number;
}

startView('scores', (result, view) => {
  // evals_read wraps the run in `data`; eval_run returns it as is.
  const out = result.structuredContent?.operation
    ? record(result.structuredContent.data)
    : (result.structuredContent ?? {});
  const cells = list(out.table).map((c) => record(c) as unknown as Cell);
  if (!cells.length) return plain(main, result, 'No score table in this result.');
  const candidates = [...new Set(cells.map((c) => c.candidate))];
  const scorers = [...new Set(cells.map((c) => c.scorer))];
  const at = new Map(cells.map((c) => [`${c.candidate}\u0000${c.scorer}`, c]));
  const worst = list(out.worst).map(String);
  const experiment = str(out.experiment_id) ?? str(record(out.experiment).id);
  const body = h('tbody');
  for (const candidate of candidates) {
    const row = h(
      'tr',
      { 'data-candidate': candidate },
      h('th', {}, h('button', { type: 'button', 'aria-expanded': 'false' }, `▸ ${candidate}`)),
    );
    for (const scorer of scorers) row.append(cell(at.get(`${candidate}\u0000${scorer}`), scorer));
    const detail = h('tr', { class: 'detail', hidden: '' }, h('td', { colspan: String(scorers.length + 1) }));
    row.querySelector('button')!.addEventListener('click', (event) => {
      const open = detail.hidden;
      detail.hidden = !open;
      (event.currentTarget as HTMLElement).setAttribute('aria-expanded', String(open));
      if (open) expand(detail.firstElementChild as HTMLElement, candidate, worst, experiment, view);
    });
    body.append(row, detail);
  }
  main.replaceChildren(
    h('h1', {}, 'Scores', str(out.status) ? ` · ${out.status}` : ''),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { id: 'scores' },
        h('thead', {}, h('tr', {}, h('th', {}, 'candidate'), ...scorers.map((s) => h('th', {}, s)))),
        body,
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      typeof out.cost_usd === 'number' ? `Cost ${usd(out.cost_usd)}` : '',
      experiment ? ` · ${experiment}` : '',
    ),
  );
});

/** Mean (and pass rate) in a cell coloured from red (0) to green (1). */
function cell(c: Cell | undefined, scorer: string): HTMLElement {
  if (!c) return h('td', { class: 'muted' }, '–');
  const td = h(
    'td',
    {
      class: 'cell',
      'data-scorer': scorer,
      'data-mean': c.mean?.toString(),
      'data-pass-rate': c.pass_rate?.toString(),
    },
    h('span', { class: 'mean' }, c.mean === undefined ? '–' : c.mean.toFixed(3)),
    c.pass_rate === undefined
      ? false
      : h('span', { class: 'pass' }, ` · ${Math.round(c.pass_rate * 100)}% pass`),
    c.failures ? h('span', { class: 'bad' }, ` · ${c.failures} failed`) : false,
  );
  if (c.mean !== undefined)
    td.style.background = `hsl(${Math.round(Math.max(0, Math.min(1, c.mean)) * 120)} 70% 72%)`;
  return td;
}

async function expand(
  into: HTMLElement,
  candidate: string,
  worst: string[],
  experiment: string | undefined,
  view: View,
) {
  const mine = worst.filter((line) => line.includes(candidate));
  into.replaceChildren(
    ...(mine.length ? mine : ['No low scores for this candidate.']).map((line) =>
      h('p', { class: 'mono' }, line),
    ),
  );
  if (!experiment) return;
  const more = h('button', { type: 'button', class: 'outputs' }, 'Show outputs');
  more.addEventListener('click', async () => {
    more.setAttribute('disabled', '');
    try {
      const page = await view.call('evals_read', { operation: 'experiments.output_items', id: experiment });
      const items = list(record(page.data).data ?? page.data).map(record);
      const shown = items
        .filter((item) => item.model === candidate || item.candidate_id === candidate)
        .slice(0, 10);
      more.replaceWith(
        ...(shown.length
          ? shown.map((item) =>
              h(
                'p',
                { class: 'mono' },
                `${JSON.stringify(item.input ?? '')} → ${str(item.output) ?? `(not stored: ${str(item.content_suppressed_reason) ?? 'the run kept no content'})`}`,
              ),
            )
          : [h('p', { class: 'muted' }, 'No output items for this candidate.')]),
      );
    } catch (error) {
      more.replaceWith(h('p', { class: 'bad' }, error instanceof Error ? error.message : String(error)));
    }
  });
  into.append(more);
}
