import { z } from 'zod';

/**
 * One route of `GET /api/v1/x402/endpoints`; shared by x402_endpoints and orbit-mcp doctor. The
 * platform's reference names the route `endpoint` and lists the rails it takes in `schemes`, per
 * route (issue 32); `path` and `url` are read too. A value of another type is not shown.
 */
export const Route = z.looseObject({
  method: z.string().optional().catch(undefined),
  endpoint: z.string().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  description: z.string().optional().catch(undefined),
  pricing: z.string().optional().catch(undefined),
  schemes: z.array(z.string()).optional().catch(undefined),
});
export type Route = z.infer<typeof Route>;

/** The route a row names, as a path: `endpoint`, `path`, or the path of `url` (each may be a whole URL). */
export function routePath(route: Route): string | undefined {
  for (const value of [route.endpoint, route.path, route.url]) {
    if (value === undefined) continue;
    if (value.startsWith('/')) return value;
    if (URL.canParse(value)) return new URL(value).pathname;
  }
  return undefined;
}

/** The list's shape is not specified (spec 1 §7.3 names the route only): a list, or one under `data`. */
export const Reply = z.union([
  z.array(z.unknown()),
  z.looseObject({ data: z.array(z.unknown()), schemes: z.array(z.string()).optional().catch(undefined) }),
]);
