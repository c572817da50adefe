import { InputError } from '../../src/errors.js';

/**
 * Evaluation run limits (spec 2 §8): at most 100 items, 5 candidates, 10 scorers and 100 work
 * units per experiment, where work units = items x candidates x max(1, scorers + 1). Checked
 * before any request, with the split that would fit.
 */
const RUN_LIMITS = { items: 100, candidates: 5, scorers: 10, workUnits: 100 } as const;

export const workUnits = (items: number, candidates: number, scorers: number): number =>
  items * candidates * Math.max(1, scorers + 1);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "rows 1-16, 17-32, 33-40" */
function ranges(items: number, perRun: number): string {
  const parts: string[] = [];
  for (let start = 1; start <= items; start += perRun) {
    const end = Math.min(items, start + perRun - 1);
    parts.push(start === end ? `${start}` : `${start}-${end}`);
  }
  return parts.length > 6 ? `${parts.slice(0, 5).join(', ')}, ... ${parts.at(-1)}` : parts.join(', ');
}

/** `items` is undefined for a dataset version (the platform counts its rows). */
export function checkRunLimits(items: number | undefined, candidates: number, scorers: number): void {
  if (candidates > RUN_LIMITS.candidates) {
    throw new InputError(
      `A run takes at most ${RUN_LIMITS.candidates} candidates; this one has ${candidates}.`,
      {
        param: 'candidates',
        fix: `Split the candidates over ${Math.ceil(candidates / RUN_LIMITS.candidates)} runs with the same rows and scorers.`,
      },
    );
  }
  if (scorers > RUN_LIMITS.scorers) {
    throw new InputError(`A run takes at most ${RUN_LIMITS.scorers} scorers; this one has ${scorers}.`, {
      param: 'scorers',
      fix: `Split the scorers over ${Math.ceil(scorers / RUN_LIMITS.scorers)} runs with the same rows and candidates.`,
    });
  }
  const perRow = workUnits(1, candidates, scorers);
  const perRun = Math.min(RUN_LIMITS.items, Math.floor(RUN_LIMITS.workUnits / perRow));
  if (items === undefined || items <= perRun) return;
  const units = workUnits(items, candidates, scorers);
  const why =
    items > RUN_LIMITS.items
      ? `it has ${items} rows; the limit is ${RUN_LIMITS.items}`
      : `it needs ${units} work units (${items} rows x ${plural(candidates, 'candidate')} x ${Math.max(1, scorers + 1)}, scorers + 1); the limit is ${RUN_LIMITS.workUnits}`;
  const fewer = candidates > 1 || scorers > 0 ? ' Fewer candidates or scorers allow more rows per run.' : '';
  throw new InputError(`This run is too big: ${why}. Nothing was sent.`, {
    param: 'rows',
    fix: `With ${plural(candidates, 'candidate')} and ${plural(scorers, 'scorer')} a run takes at most ${plural(perRun, 'row')}: split the ${items} rows into ${Math.ceil(items / perRun)} runs (rows ${ranges(items, perRun)}).${fewer}`,
    details: { work_units: units, max_rows_per_run: perRun },
  });
}
