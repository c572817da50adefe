#!/usr/bin/env node
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Only Node's own modules are imported statically: the built orbit-mcp.js loads the rest from
// chunks/ beside it, and a copy of the file alone can then say what is missing instead of failing
// before any of its code runs.
let main: (argv: string[]) => Promise<number>;
try {
  // Node 22.1+ keeps the compiled code of the bundle on disk, so later starts skip most parsing and
  // compiling; older Node runs as before. Enabled before the rest is imported, so it covers all of
  // it. The cache lives in this user's own cache folder, never a shared temporary one another user
  // could fill first.
  const { default: envPaths } = await import('env-paths');
  (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(
    join(envPaths('orbit-mcp', { suffix: '' }).cache, 'compile-cache'),
  );
  ({ main } = await import('./cli.js'));
} catch (error) {
  process.stderr.write(`orbit-mcp: ${startProblem(error)}\n`);
  process.exit(1);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`orbit-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

/** What stopped the start, in words; a missing chunk says that the dist folder goes as a whole. */
function startProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const missing =
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
    (message.includes('/chunks/') || message.includes('\\chunks\\'));
  if (!missing) return message;
  const chunks = join(dirname(fileURLToPath(import.meta.url)), 'chunks');
  return `orbit-mcp.js loads its code from the chunks/ folder beside it, and ${chunks} is missing or incomplete. To run it elsewhere, copy the whole dist folder, not the one file (in a checkout, \`npm run build\` writes it).`;
}
