/** usage_get: each quota as a meter with its reset time; the spend budget (spent, reserved, left) beside them. */
import { h, list, plain, record, startView, str, usd } from './shared/view.js';

const main = document.getElementById('view')!;
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

startView('usage', (result) => {
  const out = result.structuredContent ?? {};
  const quotas = Object.entries(record(out.quotas));
  if (!quotas.length && !out.budget) return plain(main, result, 'No usage in this result.');
  const meters = quotas.map(([name, row]) => quota(name, record(row)));
  main.replaceChildren(
    h('h1', {}, 'Usage'),
    ...meters,
    budget(record(out.budget)),
    ...list(out.notes).map((note) => h('p', { class: 'muted' }, String(note))),
  );
});

function quota(name: string, row: Record<string, unknown>): HTMLElement {
  const used = num(row.used);
  const limit = num(row.limit);
  const meter = h('meter', {
    'data-quota': name,
    min: '0',
    max: String(limit ?? 1),
    value: String(used ?? 0),
    high: String((limit ?? 1) * 0.8),
    optimum: '0',
    'aria-label': `${name} used`,
  });
  // resets_in reads as a phrase ("in 2 h"); resets_at is a time.
  const reset =
    str(row.resets_in) ??
    (str(row.resets_at) ? `at ${new Date(str(row.resets_at)!).toLocaleString()}` : undefined);
  return h(
    'div',
    { class: 'card quota' },
    h(
      'p',
      {},
      h('b', {}, name.replaceAll('_', ' ')),
      ` ${used ?? '?'} / ${limit ?? '∞'} ${str(row.unit) ?? ''}`,
    ),
    meter,
    h('p', { class: 'muted' }, reset ? `Resets ${reset}` : 'No reset time given'),
  );
}

function budget(b: Record<string, unknown>): HTMLElement {
  const limit = num(b.limit_usd);
  const spent = num(b.spent_usd) ?? 0;
  const reserved = num(b.reserved_usd) ?? 0;
  const left = num(b.left_usd);
  const rows: [string, string][] = [
    ['Spent', usd(spent)],
    ['Reserved', usd(reserved)],
    ['Left', left === undefined ? 'no limit' : usd(left)],
  ];
  return h(
    'div',
    { class: 'card', id: 'budget' },
    h('p', {}, h('b', {}, 'Spend budget'), limit === undefined ? ' (no limit set)' : ` of ${usd(limit)}`),
    limit === undefined
      ? false
      : h('meter', { min: '0', max: String(limit), value: String(spent + reserved), id: 'budget-meter' }),
    h(
      'table',
      {},
      ...rows.map(([label, value]) =>
        h('tr', {}, h('th', {}, label), h('td', { 'data-budget': label.toLowerCase() }, value)),
      ),
    ),
  );
}
