/**
 * Every regular expression in the shipped code (`src/`, `tools/`, `resources/`, `prompts/`): the
 * literals, and each `RegExp(...)` built at run time. The regex audit (`scripts/regex-audit.ts`)
 * checks the literals for backtracking, and `test/meta/regex-sites.test.ts` holds a verdict for each.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface RegexSite {
  /** `src/secrets.ts`, relative to the repository. */
  file: string;
  line: number;
  /** The literal as written (`/^a+$/g`), or the constructor call (`new RegExp(pattern, 'i')`). */
  text: string;
  /** The pattern and flags of a literal; absent for a pattern built at run time. */
  literal?: { source: string; flags: string };
}

const ROOTS = ['src', 'tools', 'resources', 'prompts'];

export function regexSites(repo: string): RegexSite[] {
  const sites: RegexSite[] = [];
  for (const root of ROOTS) {
    for (const path of typescriptFiles(join(repo, root))) {
      const text = readFileSync(path, 'utf8');
      const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
      const file = relative(repo, path).split('\\').join('/');
      const visit = (node: ts.Node): void => {
        const line = (): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const written = node.getText();
          const end = written.lastIndexOf('/');
          sites.push({
            file,
            line: line(),
            text: written,
            literal: { source: written.slice(1, end), flags: written.slice(end + 1) },
          });
        } else if (
          (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'RegExp'
        ) {
          sites.push({ file, line: line(), text: node.getText().replace(/\s+/g, ' ') });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return sites;
}

function typescriptFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return typescriptFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}
