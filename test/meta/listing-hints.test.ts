/**
 * What clients that defer tools read from tools/list: the few always-loaded core tools, the tools
 * whose long results should stay inline, and the size of the whole catalogue.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { startHarness } from '../helpers/harness.js';

/** Claude Code reads these `_meta` keys of a listed tool (and caps the size at 500,000 characters). */
const ALWAYS_LOAD = 'anthropic/alwaysLoad';
const RESULT_SIZE = 'anthropic/maxResultSizeChars';

const h = await startHarness({ config: { toolsets: 'all' } });
const { tools } = await h.client.listTools();
await h.close();

describe('tools/list for clients that defer tools', () => {
  it('loads the three tools most requests start from at once: a model id, a web search, what is spent', () => {
    const always = tools.filter((tool) => tool._meta?.[ALWAYS_LOAD] === true).map((tool) => tool.name);
    expect(always.sort()).toEqual(['models_list', 'usage_get', 'web_search']);
  });

  it('lets the tools whose results can be long keep them inline: data calls, transcripts, batch and eval results', () => {
    const long = tools.filter((tool) => tool._meta?.[RESULT_SIZE] !== undefined);
    expect(long.map((tool) => tool.name).sort()).toEqual([
      'batches_get',
      'data_call',
      'evals_read',
      'job_status',
      'transcribe',
      'transcribe_video_links',
    ]);
    for (const tool of long) {
      const chars = tool._meta?.[RESULT_SIZE];
      expect(typeof chars === 'number' && chars > 25_000 && chars <= 500_000, tool.name).toBe(true);
    }
  });

  it('keeps every toolset within 7,000 tokens, hints included (test/meta/views.test.ts adds the views)', () => {
    expect(encode(JSON.stringify({ tools })).length).toBeLessThanOrEqual(7_000);
  });
});
