import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';
import { DATA_PREFIX, normalizeId } from '../data/shared.js';
import { ACCOUNTLESS_SEARCH_PATH, SEARCH_PATH } from '../search/search.js';
import { Reply, Route, routePath } from './catalog.js';

/** Which of this server's tools calls a payable route, with what. */
function toolFor(path: string): string | undefined {
  if (path === SEARCH_PATH || path === ACCOUNTLESS_SEARCH_PATH) return 'web_search';
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
    // Each route is read on its own: one that cannot be read, or names no route, is named.
    const listed = usableList(Route, Array.isArray(data) ? data : data.data, {
      nameKeys: ['endpoint', 'path', 'url'],
      usable: (route) => (routePath(route) ? undefined : 'names no route'),
    });
    const notUsable = leftOutNote('route', listed.left_out);
    // Rails: one line when every route takes the same ones, else on each route's line.
    const rails = new Set(
      [...listed.items.map((route) => route.schemes), Array.isArray(data) ? undefined : data.schemes]
        .filter((schemes) => schemes?.length)
        .map((schemes) => schemes!.join(', ')),
    );
    const perRoute = rails.size > 1;
    const routes = listed.items.map((route) => {
      const path = routePath(route)!;
      const tool = toolFor(path);
      const line = `${(route.method ?? 'POST').toUpperCase()} ${path}`;
      const own = perRoute && route.schemes?.length ? `; rails: ${route.schemes.join(', ')}` : '';
      return `${line}${route.pricing ? `: ${route.pricing}` : ''}${tool ? ` (${tool})` : ''}${own}`;
    });
    if (notUsable) routes.push(`(${notUsable})`);
    const [shared] = rails;
    return { routes: !perRoute && shared ? [...routes, `rails: ${shared}`] : routes };
  },
  text: (r) => r.routes.join('\n'),
});
