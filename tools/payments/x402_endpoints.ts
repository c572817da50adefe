import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { DATA_PREFIX, normalizeId } from '../data/shared.js';
import { Reply, Route } from './catalog.js';

/** Which of this server's tools calls a payable route, with what. */
function toolFor(path: string): string | undefined {
  if (path === '/api/web') return 'web_search';
  if (path.startsWith(`${DATA_PREFIX}/`)) return `data_call endpoint ${normalizeId(path)}`;
  return undefined;
}

export default defineTool({
  name: 'x402_endpoints',
  title: 'Payable routes',
  description:
    'Routes payable per call without an account (x402: crypto, Lightning): price and tool to call.',
  toolset: 'payments',
  credential: 'none',
  input: z.object({}),
  output: z.object({ routes: z.array(z.string()) }),
  nature: 'read',
  async run(_args, ctx) {
    const { data } = await ctx.api.request({
      method: 'GET',
      path: '/api/v1/x402/endpoints',
      credential: 'none',
      schema: Reply,
    });
    // Each route is read on its own: one that cannot be read is named, the rest listed.
    const listed = usableList(Route, Array.isArray(data) ? data : data.data, { nameKeys: ['path', 'url'] });
    const notUsable = leftOutNote('route', listed.left_out);
    const routes = listed.items.flatMap((route) => {
      const path =
        route.path ?? (route.url && URL.canParse(route.url) ? new URL(route.url).pathname : undefined);
      if (!path) return [];
      const tool = toolFor(path);
      const line = `${(route.method ?? 'POST').toUpperCase()} ${path}`;
      return [`${line}${route.pricing ? `: ${route.pricing}` : ''}${tool ? ` (${tool})` : ''}`];
    });
    const schemes = Array.isArray(data) ? undefined : data.schemes;
    if (notUsable) routes.push(`(${notUsable})`);
    return { routes: schemes?.length ? [...routes, `rails: ${schemes.join(', ')}`] : routes };
  },
  text: (r) => r.routes.join('\n'),
});
