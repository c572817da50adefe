/**
 * orbit-mcp as a library: `import { createOrbitServer } from 'orbit-mcp'` resolves through the
 * package's exports map to the unbundled build with its types (npm test builds first), and a
 * server made from it serves a real client over the SDK's in-memory transport.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  exports: Record<string, { types: string; import: string }>;
};

describe('the library build', () => {
  it('is what the exports map names, with types', () => {
    expect(existsSync(pkg.exports['.']!.import)).toBe(true);
    expect(existsSync(pkg.exports['.']!.types)).toBe(true);
  });

  it('type-checks a consumer against the published types', () => {
    // Throws (and fails the test) with the compiler's messages when the types do not fit.
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/library/tsconfig.json'], {
      encoding: 'utf8',
    });
  });

  it('serves a real client in process: tools listed, a chat answered on the sandbox', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/library/consumer.ts'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    });
    const seen = JSON.parse(out.trim().split('\n').at(-1)!) as {
      target: string;
      tools: string[];
      result: { text: string };
    };
    expect(seen.target).toBe('sandbox');
    expect(seen.tools).toContain('chat');
    expect(seen.tools).not.toContain('image_generate');
    expect(seen.result.text).toContain('hello from a library user');
  });
});
