import type { Context } from 'hono';
import { findTextProvider, TEXT_PROVIDERS, type TextProvider } from '../catalog/text-providers.js';
import { badRequest, SandboxError } from '../errors.js';
import type { KeyRecord, SandboxState } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import type { ResolvedModel } from './resolve.js';

/**
 * Provider routing of text requests (spec 2 §4.2): the `X-Provider` header pins one provider (billed
 * pay-as-you-go at its price plus markup, never covered by a subscription); otherwise the routing
 * suffix orders the providers that can serve the request, caching requests prefer the provider the
 * key used last for the model (soft affinity), and a provider that is down is skipped unless the
 * request is sticky, which then fails with 503 rather than lose its cache.
 */
const PROVIDER_MARKUP = 1.05;

export interface RouteNeeds {
  /** Only caching providers may serve it (`caching`, `:caching`, `prompt_caching.enabled`). */
  caching: boolean;
  /** Prefer the provider this key's caching requests used last. */
  affinity: boolean;
  tools: boolean;
  sticky: boolean;
}

export interface Route {
  provider: TextProvider;
  priceFactor: number;
  /** Pay-as-you-go forced by `X-Provider` or `X-Billing-Mode: paygo`. */
  paygo: boolean;
  /** An active subscription pays: subscriber key, included model, no paygo. */
  covered: boolean;
}

const down = (state: SandboxState) => state.collection<true>('providers.down');
const affinity = (state: SandboxState) => state.collection<string>('providers.affinity');

export const isProviderDown = (state: SandboxState, slug: string): boolean => down(state).has(slug);

/** Marks a provider down (its requests fail over, or 503 when sticky or pinned) or back up. */
export function setProviderDown(state: SandboxState, slug: string, isDown: boolean): void {
  if (isDown) down(state).set(slug, true);
  else down(state).delete(slug);
}

export function routeText(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  key: KeyRecord,
  resolved: ResolvedModel,
  needs: RouteNeeds,
): Route {
  const { model } = resolved;
  const billing = c.req.header('x-billing-mode');
  if (billing !== undefined && billing.trim().toLowerCase() !== 'paygo') {
    throw badRequest('X-Billing-Mode accepts only "paygo".', 'invalid_parameter_value', 'X-Billing-Mode');
  }
  const lacks = (p: TextProvider) =>
    needs.caching && !p.caching(model)
      ? 'prompt caching'
      : needs.tools && !p.tools(model)
        ? 'tool use'
        : undefined;
  const pinned = c.req.header('x-provider');
  if (pinned !== undefined) {
    const provider = findTextProvider(pinned);
    if (!provider) {
      throw badRequest(
        `Provider "${pinned}" does not serve "${model.id}"; see GET /api/models/${model.id}/providers.`,
        'model_not_available',
        'X-Provider',
      );
    }
    const missing = lacks(provider);
    if (missing)
      throw badRequest(
        `${provider.name} offers no ${missing} for "${model.id}".`,
        'model_not_available',
        'X-Provider',
      );
    if (isProviderDown(ctx.state, provider.slug)) {
      throw new SandboxError(
        503,
        `${provider.name} is unavailable and X-Provider allows no other provider.`,
        {
          code: 'no_fallback_available',
        },
      );
    }
    return { provider, priceFactor: provider.priceFactor * PROVIDER_MARKUP, paygo: true, covered: false };
  }
  const able = TEXT_PROVIDERS.filter((p) => !lacks(p));
  if (able.length === 0) {
    const missing = lacks(TEXT_PROVIDERS[0]!) ?? 'this request';
    throw badRequest(
      `No provider of "${model.id}" supports ${missing}; drop it or pick another model.`,
      'model_not_available',
      missing === 'tool use' ? 'tools' : 'model',
    );
  }
  const ordered = orderFor(resolved, able);
  const preferred = needs.affinity ? affinity(ctx.state).get(`${key.key}|${model.id}`) : undefined;
  const first = ordered.find((p) => p.slug === preferred) ?? ordered[0]!;
  const candidates = [first, ...ordered.filter((p) => p !== first)];
  const provider = candidates.find((p) => !isProviderDown(ctx.state, p.slug));
  if (!provider) {
    throw new SandboxError(
      503,
      `Every provider of "${model.id}" that can serve this request is unavailable.`,
      {
        code: 'all_fallbacks_failed',
      },
    );
  }
  if (provider !== first && needs.sticky) {
    throw new SandboxError(
      503,
      `${first.name} is unavailable and stickyprovider forbids switching providers (the prompt cache lives there).`,
      { code: 'fallback_blocked_for_cache_consistency' },
    );
  }
  const paygo = billing !== undefined;
  return {
    provider,
    priceFactor: provider.priceFactor,
    paygo,
    covered: !paygo && key.subscriber && model.subscription,
  };
}

/** Records the provider a caching request used, for the next one's affinity. */
export function rememberRoute(ctx: SandboxContext, key: KeyRecord, modelId: string, route: Route): void {
  affinity(ctx.state).set(`${key.key}|${modelId}`, route.provider.slug);
}

function orderFor(resolved: ResolvedModel, providers: TextProvider[]): TextProvider[] {
  const by = (score: (p: TextProvider) => number) => [...providers].sort((a, b) => score(a) - score(b));
  switch (resolved.sort) {
    case 'price':
      return by((p) => p.priceFactor);
    case 'latency':
      return by((p) => p.latencyMs);
    case 'throughput':
      return by((p) => -p.throughputTps);
    default:
      return providers;
  }
}
