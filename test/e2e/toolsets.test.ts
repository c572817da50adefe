import { describe, expect, it } from 'vitest';
import { startHarness } from '../helpers/harness.js';

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
