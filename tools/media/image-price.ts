import { z } from 'zod';
import type { Price } from '../../src/budget/ledger.js';
import { OrbitError } from '../../src/errors.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { imageModel } from './images.js';

/** A model's endpoint metadata (spec 2 §2.3): its public price per image, by resolution. */
const Endpoints = z.looseObject({
  endpoints: z.array(
    z.looseObject({
      pricing: z
        .array(
          z.looseObject({
            unit: z.string().optional(),
            cost_usd: z.coerce.number(),
            resolution: z.string().optional(),
          }),
        )
        .optional(),
    }),
  ),
});

/**
 * What an image generation costs, from the model's public price per image at the requested
 * resolution (its default when none is asked; the dearest listed when the asked one is not),
 * times `n`. Read only when a budget is set; undefined leaves the tool's ceiling (no metadata, no
 * per-image price). An unknown model is refused here as it would be by run, before anything is sent.
 */
export async function imagePrice(
  ctx: ToolContext,
  args: { model: string; n?: number; resolution?: string },
): Promise<Price | undefined> {
  if (ctx.budget.limitUsd === undefined) return undefined;
  const model = await imageModel(ctx, args.model);
  const path = endpointsPath(ctx, model.id, model.endpoints);
  if (!path) return undefined;
  let prices: { cost_usd: number; resolution?: string }[];
  try {
    const { data } = await ctx.api.request({ method: 'GET', path, credential: 'none', schema: Endpoints });
    prices = (data.endpoints[0]?.pricing ?? []).filter(
      (p) =>
        (p.unit === undefined || p.unit === 'per_image') && Number.isFinite(p.cost_usd) && p.cost_usd >= 0,
    );
  } catch (error) {
    if (error instanceof OrbitError) return undefined;
    throw error;
  }
  const rule = model.supported_parameters?.resolution as { default?: unknown } | undefined;
  const resolution = args.resolution ?? (typeof rule?.default === 'string' ? rule.default : undefined);
  const listed = prices.filter((p) => p.resolution === resolution);
  const each = Math.max(...(listed.length > 0 ? listed : prices).map((p) => p.cost_usd));
  if (!Number.isFinite(each)) return undefined;
  const n = args.n ?? 1;
  return {
    usd: each * n,
    basis: `${model.id} at the catalog's ${each} USD per image${
      listed.length > 0 ? ` at ${resolution}` : ' (the dearest resolution listed)'
    }, ${n} image${n > 1 ? 's' : ''}`,
    less: () => 'Ask for fewer images, a smaller resolution or a cheaper model',
  };
}

/**
 * The metadata route (spec 2 §4.4a): the list's `endpoints` URL when it is on the platform's own
 * host (ids with slashes need it), else the route built from an id without slashes.
 */
function endpointsPath(ctx: ToolContext, id: string, listed: unknown): string | undefined {
  const base = ctx.api.baseUrl.endsWith('/') ? ctx.api.baseUrl.slice(0, -1) : ctx.api.baseUrl;
  if (typeof listed === 'string' && listed.startsWith(`${base}/`)) return listed.slice(base.length);
  return id.includes('/') ? undefined : `/api/v1/images/models/${encodeURIComponent(id)}/endpoints`;
}
