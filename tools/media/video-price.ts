import { z } from 'zod';
import type { Price } from '../../src/budget/ledger.js';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { readReply } from '../../src/replies/read.js';
import { fetchCatalog } from '../models/shared.js';

/** The video catalog's pricing as the platform lists it (spec 2 §4.4 leaves the shape open). */
const VideoPricing = z.looseObject({
  unit: z.literal('per_second'),
  usd_by_resolution: z.record(z.string(), z.number()),
});

/**
 * What a video will cost before it is sent: the model's per-second price at the requested
 * resolution times the requested duration (the dearest resolution and the longest duration the
 * model lists when not given). Undefined when the catalog does not say, so the tool's ceiling holds.
 */
export async function videoPrice(
  ctx: ToolContext,
  model: string,
  request: { duration?: string; resolution?: string },
): Promise<Price | undefined> {
  const record = (await fetchCatalog(ctx.api, 'video').catch(() => [])).find((m) => m.id === model);
  const pricing = readReply(VideoPricing, record?.pricing);
  if (!record || !pricing.success) return undefined;
  const prices = pricing.data.usd_by_resolution;
  const perSecond = request.resolution ? prices[request.resolution] : Math.max(...Object.values(prices));
  const durations = Array.isArray(record.durations)
    ? record.durations.map(Number).filter(Number.isFinite)
    : [];
  const seconds = request.duration !== undefined ? Number(request.duration) : Math.max(...durations);
  if (perSecond === undefined || !Number.isFinite(perSecond) || !Number.isFinite(seconds)) return undefined;
  return {
    usd: perSecond * seconds,
    basis: `${model} at ${perSecond} USD per second${request.resolution ? ` at ${request.resolution}` : ''} for ${seconds} s`,
  };
}
