/**
 * "Budget" means money (issue 36 item 1): the spend budget and its window, and the platform's own
 * thinking budget (a field of its API). A wait, a retry or a deadline is said in its own words
 * (`max_wait_s`, `maxTotalWaitMs`, the time left), so a reader who meets "budget" is in money.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_ROOTS } from '../../scripts/lib/import-graph.js';

/** Every word with "budget" in it that shipped code may use. */
const MONEY_WORDS = new Set([
  'budget',
  'budgets',
  'Budget',
  'SpendBudget',
  'SpendBudgets',
  'BudgetState',
  'BudgetExceededError',
  'budget_exceeded',
  'budgetWindow',
  'BUDGET_WINDOW',
  'ORBIT_BUDGET_WINDOW',
  'shaped_by_budget',
  // The platform's thinking budget (spec 2 §8), a field of its API.
  'thinking_budget',
  'budget_tokens',
  'THINKING_BUDGET',
  'thinkingBudgetOf',
]);
/** Rooms that hold no money: a "budget" there is a wait's or a retry's. */
const MONEYLESS = ['src/jobs/', 'src/upstream/', 'src/mcp/http/cluster/'];
/** Phrases that give a wait or a retry a budget. */
const TIME_BUDGET = /\b(time|wait|retry|total)[ -]budget|\bbudget (runs|ran|run) out/i;
/** A duration named a budget (`waitBudgetMs`, `budgetMs`). */
const TIME_NAME = /[bB]udget(Ms|S)\b/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === 'src/sandbox' ? [] : files(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function budgetWordsIn(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    for (const [word] of line.matchAll(/[A-Za-z0-9_$]*budget[A-Za-z0-9_$]*/gi)) {
      if (!MONEY_WORDS.has(word)) found.push(`${at} ${word}`);
    }
    if (TIME_BUDGET.test(line) || TIME_NAME.test(line)) found.push(`${at} ${line.trim()}`);
    else if (/budget/i.test(line) && MONEYLESS.some((room) => path.startsWith(room)))
      found.push(`${at} ${line.trim()}`);
  });
  return found;
}

describe('the word budget', () => {
  const shipped = SHIPPED_ROOTS.flatMap((root) => files(root));

  it('reads every shipped file outside the sandbox (the emulator speaks the platform)', () => {
    expect(shipped.length).toBeGreaterThan(200);
  });

  it('means money only: no wait, retry or deadline is called a budget', () => {
    const found = shipped.flatMap((path) => budgetWordsIn(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('catches the names a wait or a retry used to have', () => {
    expect(budgetWordsIn('src/jobs/follow.ts', 'export function waitBudgetMs(s: number) {}')).toHaveLength(2);
    expect(budgetWordsIn('tools/media/audio.ts', ' * within the wait budget.')).toHaveLength(1);
    expect(budgetWordsIn('src/upstream/client.ts', '// The budget counts the attempts too')).toHaveLength(1);
    expect(budgetWordsIn('src/budget/ledger.ts', ' * past the spend budget.')).toEqual([]);
  });
});
