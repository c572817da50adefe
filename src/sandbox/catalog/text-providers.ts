import type { TextModel } from './text-models.js';

/**
 * The providers that serve every sandbox text model, in default failover order. Routing suffixes
 * pick among them (spec 2 §4.2): `:cheap` the lowest price, `:fast`/`:latency` the lowest latency,
 * `:throughput` the highest throughput. Budget Compute has no prompt caching, so caching requests
 * fail over from Sandbox Cloud to Swift Inference only.
 */
export interface TextProvider {
  name: string;
  slug: string;
  /** Price relative to the model's list price. */
  priceFactor: number;
  latencyMs: number;
  throughputTps: number;
  caching(model: TextModel): boolean;
  tools(model: TextModel): boolean;
}

export const TEXT_PROVIDERS: readonly TextProvider[] = [
  {
    name: 'Sandbox Cloud',
    slug: 'sandbox-cloud',
    priceFactor: 1,
    latencyMs: 400,
    throughputTps: 80,
    caching: (m) => m.caching,
    tools: (m) => m.tools,
  },
  {
    name: 'Swift Inference',
    slug: 'swift-inference',
    priceFactor: 1.25,
    latencyMs: 150,
    throughputTps: 150,
    caching: (m) => m.caching,
    tools: (m) => m.tools,
  },
  {
    name: 'Budget Compute',
    slug: 'budget-compute',
    priceFactor: 0.8,
    latencyMs: 900,
    throughputTps: 200,
    caching: () => false,
    tools: (m) => m.tools,
  },
];

/** A provider by slug or display name, case-insensitive. */
export function findTextProvider(name: string): TextProvider | undefined {
  const wanted = name.trim().toLowerCase();
  return TEXT_PROVIDERS.find((p) => p.slug === wanted || p.name.toLowerCase() === wanted);
}

const usd = (value: number) => Math.round(value * 1e6) / 1e6;

/** The provider-discovery entry (`GET /api/models/{canonicalId}/providers`). */
export function providerEntry(
  model: TextModel,
  provider: TextProvider,
  down: boolean,
): Record<string, unknown> {
  return {
    provider_name: provider.name,
    provider_slug: provider.slug,
    status: down ? 'unavailable' : 'available',
    pricing: {
      prompt: usd(model.pricing.prompt * provider.priceFactor),
      completion: usd(model.pricing.completion * provider.priceFactor),
      unit: 'per_million_tokens',
    },
    context_length: model.context_length,
    max_output_tokens: model.max_output_tokens,
    supports_caching: provider.caching(model),
    supports_tools: provider.tools(model),
    latency_ms: provider.latencyMs,
    throughput_tps: provider.throughputTps,
  };
}
