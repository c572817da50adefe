/**
 * The sandbox's text models. Prices are USD per million tokens. Ids, prices and ranks are part of
 * the sandbox's contract with tests: change them only together with the tests that read them.
 */
type ReasoningMode = 'always' | 'on-request' | 'none';

export interface TextModel {
  id: string;
  name: string;
  owned_by: string;
  description: string;
  context_length: number;
  max_output_tokens: number;
  pricing: { prompt: number; completion: number };
  /** Included in the subscription (listed by `/api/subscription/v1/models`). */
  subscription: boolean;
  /** `always`: emits reasoning on every call; `on-request`: with `:thinking` or a thinking budget. */
  reasoning: ReasoningMode;
  caching: boolean;
  tools: boolean;
  vision: boolean;
  tee: boolean;
  supported_service_tiers: string[];
  category: string;
  /** Position in the global `sort=mostused` ranking; unranked models follow ranked ones. */
  rank?: number;
}

export const TEXT_MODELS: readonly TextModel[] = [
  {
    id: 'openai/gpt-sandbox',
    name: 'GPT Sandbox',
    owned_by: 'openai',
    description: 'General-purpose chat model with tools and vision.',
    context_length: 128_000,
    max_output_tokens: 16_384,
    pricing: { prompt: 2.5, completion: 10 },
    subscription: true,
    reasoning: 'none',
    caching: true,
    tools: true,
    vision: true,
    tee: false,
    supported_service_tiers: ['flex', 'fast', 'priority'],
    category: 'general',
    rank: 1,
  },
  {
    id: 'openai/gpt-sandbox-mini',
    name: 'GPT Sandbox Mini',
    owned_by: 'openai',
    description: 'Small, fast and cheap chat model.',
    context_length: 128_000,
    max_output_tokens: 16_384,
    pricing: { prompt: 0.15, completion: 0.6 },
    subscription: true,
    reasoning: 'none',
    caching: true,
    tools: true,
    vision: true,
    tee: false,
    supported_service_tiers: ['flex'],
    category: 'general',
    rank: 2,
  },
  {
    id: 'anthropic/claude-sandbox',
    name: 'Claude Sandbox',
    owned_by: 'anthropic',
    description: 'Careful writer; thinks when asked (`:thinking` or a thinking budget).',
    context_length: 200_000,
    max_output_tokens: 64_000,
    pricing: { prompt: 3, completion: 15 },
    subscription: false,
    reasoning: 'on-request',
    caching: true,
    tools: true,
    vision: true,
    tee: false,
    supported_service_tiers: [],
    category: 'general',
    rank: 3,
  },
  {
    id: 'google/gemini-sandbox',
    name: 'Gemini Sandbox',
    owned_by: 'google',
    description: 'Long-context model with native web search.',
    context_length: 1_000_000,
    max_output_tokens: 65_536,
    pricing: { prompt: 0.3, completion: 2.5 },
    subscription: true,
    reasoning: 'none',
    caching: true,
    tools: true,
    vision: true,
    tee: false,
    supported_service_tiers: ['flex'],
    category: 'general',
    rank: 4,
  },
  {
    id: 'sandbox/reasoner',
    name: 'Sandbox Reasoner',
    owned_by: 'sandbox',
    description: 'Reasoning model: streams its reasoning before the answer.',
    context_length: 128_000,
    max_output_tokens: 32_768,
    pricing: { prompt: 1, completion: 4 },
    subscription: false,
    reasoning: 'always',
    caching: true,
    tools: true,
    vision: false,
    tee: false,
    supported_service_tiers: [],
    category: 'reasoning',
    rank: 5,
  },
  {
    id: 'meta/llama-sandbox-8b',
    name: 'Llama Sandbox 8B',
    owned_by: 'meta',
    description: 'Open-weights small model; no prompt caching, no tools.',
    context_length: 32_768,
    max_output_tokens: 8_192,
    pricing: { prompt: 0.05, completion: 0.08 },
    subscription: true,
    reasoning: 'none',
    caching: false,
    tools: false,
    vision: false,
    tee: false,
    supported_service_tiers: [],
    category: 'open-source',
    rank: 6,
  },
  {
    id: 'mistral/mistral-sandbox',
    name: 'Mistral Sandbox',
    owned_by: 'mistral',
    description: 'European general model.',
    context_length: 128_000,
    max_output_tokens: 8_192,
    pricing: { prompt: 0.4, completion: 2 },
    subscription: false,
    reasoning: 'none',
    caching: true,
    tools: true,
    vision: false,
    tee: false,
    supported_service_tiers: [],
    category: 'general',
  },
  // Enclave models: ids start with `TEE/`, as the platform spells its TEE prefix (spec 2 §4.12).
  {
    id: 'TEE/llama-sandbox',
    name: 'Llama Sandbox (TEE)',
    owned_by: 'tee',
    description: 'Runs in a trusted execution environment; replies can be verified by attestation.',
    context_length: 32_768,
    max_output_tokens: 8_192,
    pricing: { prompt: 0.2, completion: 0.6 },
    subscription: false,
    reasoning: 'none',
    caching: false,
    tools: false,
    vision: false,
    tee: true,
    supported_service_tiers: [],
    category: 'private',
  },
  {
    id: 'TEE/deepseek-sandbox',
    name: 'DeepSeek Sandbox (TEE)',
    owned_by: 'tee',
    description:
      'Reasoning model in a trusted execution environment; replies can be verified by attestation.',
    context_length: 65_536,
    max_output_tokens: 16_384,
    pricing: { prompt: 0.5, completion: 2 },
    subscription: false,
    reasoning: 'always',
    caching: false,
    tools: false,
    vision: false,
    tee: true,
    supported_service_tiers: [],
    category: 'private',
  },
];

const BY_ID = new Map(TEXT_MODELS.map((model) => [model.id, model]));

export function findTextModel(id: string): TextModel | undefined {
  return BY_ID.get(id);
}
