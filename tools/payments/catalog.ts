import { z } from 'zod';

/** `GET /api/v1/x402/endpoints`; shared by x402_endpoints and orbit-mcp doctor. */
export const Route = z.looseObject({
  method: z.string().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  description: z.string().optional(),
  pricing: z.string().optional(),
});
/** The list's shape is not specified (spec 1 §7.3 names the route only): a list, or one under `data`. */
export const Reply = z.union([
  z.array(z.unknown()),
  z.looseObject({ data: z.array(z.unknown()), schemes: z.array(z.string()).optional().catch(undefined) }),
]);
