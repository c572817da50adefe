import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stopProcess } from '../../../scripts/lib/http-server.js';
import { emptyToolsetsWarning, TOOLSETS, type Toolset } from '../../../src/config.js';
import { toolCatalog } from '../../../tools/index.js';
import { startHarness } from '../../helpers/harness.js';

const BIN = 'dist/orbit-mcp.js';

/** What the built binary prints on stderr until it listens (HTTP on a free port), then stops it. */
async function startupStderr(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, '--http', '--port', '0', '--sandbox', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('listening at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${stderr}`)));
  });
  await stopProcess(child);
  return stderr;
}

describe('toolsets and read-only mode', () => {
  it('shows only the chosen toolsets', async () => {
    const h = await startHarness({ config: { toolsets: 'models' } });
    try {
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['models_get', 'models_list']);
      await expect(h.call('chat', { model: 'x', prompt: 'y' })).rejects.toThrow(
        /Unknown tool "chat"[\s\S]*models/,
      );
    } finally {
      await h.close();
    }
  });

  it('turns on by default only toolsets that have tools', async () => {
    const h = await startHarness();
    try {
      const defaults = toolCatalog.toolsetsFor(undefined);
      await expect(h.call('no_such_tool', {})).rejects.toThrow(`Enabled toolsets: ${defaults.join(', ')}.`);
      const { tools } = await h.client.listTools();
      const listed = new Set(
        tools.map((tool) => toolCatalog.entries.find((e) => e.name === tool.name)?.toolset),
      );
      expect([...listed].sort()).toEqual([...defaults].sort());
    } finally {
      await h.close();
    }
  });

  it('warns on stderr, at start-up, about named toolsets that have no tools', async () => {
    const every = Object.keys(TOOLSETS) as Toolset[];
    const stderr = await startupStderr(['--toolsets', every.join(',')]);
    const warning = emptyToolsetsWarning(every, toolCatalog.hasTools);
    // Every toolset may have tools one day; until then the warning names the empty ones.
    if (warning) expect(stderr).toContain(`orbit-mcp: ${warning}`);
    else expect(stderr).not.toContain('no tools');
    expect(await startupStderr(['--toolsets', 'models'])).not.toContain('no tools');
  });

  it('hides tools that write or spend in read-only mode', async () => {
    const h = await startHarness({ config: { readOnly: true, toolsets: 'all' } });
    try {
      const { tools } = await h.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain('models_list');
      expect(names).not.toContain('chat');
      expect(names).not.toContain('web_search');
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('lists titles, output schemas and the annotations that differ from the MCP defaults', async () => {
    const h = await startHarness();
    try {
      const { tools } = await h.client.listTools();
      for (const tool of tools) {
        expect(tool.title).toBeTruthy();
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations).toBeDefined();
      }
      const byName = new Map(tools.map((t) => [t.name, t]));
      // Reading is read-only; paid generation is neither read-only nor destructive (MCP defaults fill the rest).
      expect(byName.get('models_list')?.annotations).toEqual({ readOnlyHint: true });
      expect(byName.get('chat')?.annotations).toEqual({ destructiveHint: false });
    } finally {
      await h.close();
    }
  });
});
