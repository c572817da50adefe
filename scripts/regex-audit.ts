/**
 * Regex audit: every regular-expression literal in the shipped code, checked for backtracking
 * (exponential or polynomial time in the input's length) with recheck, a ReDoS checker used here
 * only, never at run time. Patterns built at run time are listed for review by hand.
 *
 *   npx tsx scripts/regex-audit.ts          # one line per site, and how many recheck flags
 *
 * A flagged site is fixed, or its input bounded before it; the verdict on each site, and the test
 * that backs it, is in test/meta/regex-sites.test.ts.
 */

import { checkSync } from 'recheck';
import { regexSites } from './lib/regex-sites.js';

const repo = new URL('..', import.meta.url).pathname;
let vulnerable = 0;
for (const site of regexSites(repo)) {
  const where = `${site.file}:${site.line}`;
  if (!site.literal) {
    console.log(`${where}\tbuilt at run time (review)\t${site.text}`);
    continue;
  }
  const diagnostics = checkSync(site.literal.source, site.literal.flags.replace(/[gy]/g, ''));
  let verdict: string = diagnostics.status;
  if (diagnostics.status === 'vulnerable') {
    vulnerable += 1;
    verdict = `VULNERABLE ${diagnostics.complexity.type} (${diagnostics.attack.pattern})`;
  } else if (diagnostics.status === 'safe') {
    // The automaton checker names the complexity; the fuzz checker only says safe.
    verdict = diagnostics.complexity.type === 'safe' ? 'safe' : `safe ${diagnostics.complexity.type}`;
  } else {
    verdict = `unknown (${diagnostics.error.kind})`;
  }
  console.log(`${where}\t${verdict}\t${site.text}`);
}
console.log(`${vulnerable} flagged by recheck (see their verdicts in test/meta/regex-sites.test.ts)`);
