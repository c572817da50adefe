#!/usr/bin/env node
import module from 'node:module';
import { join } from 'node:path';
import envPaths from 'env-paths';

// Node 22.1+ keeps the compiled code of the bundle on disk, so later starts skip most parsing and
// compiling; older Node runs as before. Enabled before the rest is imported, so it covers all of it.
// The cache lives in this user's own cache folder, never a shared temporary one another user could
// fill first.
(module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(
  join(envPaths('orbit-mcp', { suffix: '' }).cache, 'compile-cache'),
);
const { main } = await import('./cli.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`orbit-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
