import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import type { ExtraContent, ToolContext } from '../../src/mcp/define-tool.js';
import type { BytesResponse } from '../../src/upstream/client.js';
import { DataOut, dataContent, dataText, renderDataReply } from '../data/reply.js';
import { SearchArgs, SearchOut, searchFromBytes, searchText } from '../search/search.js';

/**
 * How each tool that can ask for a quote renders the paid call's reply: the same way it renders
 * a call paid from an account, so x402_complete returns what the asking tool would have.
 */
export interface Renderer {
  render(
    ctx: ToolContext,
    stored: Record<string, unknown>,
    reply: BytesResponse,
  ): Promise<Record<string, unknown>>;
  text(result: Record<string, unknown>): string;
  content(result: Record<string, unknown>): ExtraContent[];
}

const DataRender = z.object({ id: z.string() });

const RENDERERS: Record<string, Renderer> = {
  data_call: {
    render: (ctx, stored, reply) => renderDataReply(ctx, DataRender.parse(stored).id, reply),
    text: (result) => dataText(DataOut.parse(result)),
    content: (result) => dataContent(DataOut.parse(result)),
  },
  web_search: {
    render: async (_ctx, stored, reply) => searchFromBytes(SearchArgs.parse(stored), reply),
    text: (result) => searchText(SearchOut.parse(result)),
    content: () => [],
  },
};

export function rendererFor(tool: string): Renderer {
  const renderer = RENDERERS[tool];
  if (!renderer) {
    throw new InputError(`This quote was made by ${tool}, whose results this server cannot render.`, {
      fix: 'Pay quotes made by data_call or web_search; ask again with one of them.',
      param: 'quote_id',
    });
  }
  return renderer;
}
