import { z } from 'zod';
import { Conversation } from './shared.js';

/**
 * chat's arguments. Every word here is listed to every user on every turn, so rare controls sit in
 * small nested objects with short descriptions; docs/guide.md "Text generation" documents each in full.
 */
const FORMATS = ['chat', 'messages', 'responses', 'completions'] as const;
export type Format = (typeof FORMATS)[number];

const ToolDef = z.object({
  name: z.string(),
  description: z.string().optional(),
  // A JSON Schema object, checked in tools/text/request.ts (listed without a shape to save tokens).
  parameters: z.unknown().optional(),
});
export type ToolDef = z.infer<typeof ToolDef>;

/**
 * How a request is routed and billed: the model suffixes of spec 2 §4.2, then three controls of the
 * same table: strict failover (`stickyprovider`), `X-Billing-Mode: paygo` and the paid `moderation`
 * preflight header. One list keeps the schema small.
 */
export const SUFFIXES = ['fast', 'cheap', 'throughput', 'latency', 'tools', 'online'] as const;
const ROUTES = [...SUFFIXES, 'sticky', 'paygo', 'moderation'] as const;

export const Input = z.object({
  ...Conversation,
  format: z.enum(FORMATS).default('chat'),
  max_tokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  // Sampling and messages-format controls (spec 2 §4.1, §4.2). Their ranges are checked in checks.ts,
  // not listed, to keep tools/list small; service_tier values are a model's (models_get).
  top_p: z.number().optional(),
  stop: z.array(z.string()).optional(),
  top_k: z.number().int().optional(),
  service_tier: z.string().optional(),
  thinking_budget: z.number().int().optional(),
  cache_system: z.enum(['5m', '1h']).optional(),
  parallel_tools: z.boolean().optional(),
  stream: z.boolean().default(true),
  web_search: z.boolean().default(false).describe('+$0.006: live results'),
  tools: z.array(ToolDef).optional(),
  tool_choice: z.string().optional().describe('auto|none|required|<name>'),
  reasoning_effort: z.enum(['none', 'low', 'medium', 'high']).optional(),
  hide_reasoning: z.boolean().optional(),
  caching: z.boolean().optional(),
  route: z.array(z.enum(ROUTES)).optional().describe('sticky: no failover'),
  provider: z.string().optional().describe('paygo, not subscription'),
  previous_response_id: z.string().optional(),
  store: z.boolean().optional(),
  retention_days: z.number().int().min(0).max(365).optional(),
  // Waits are capped by src/jobs (10 minutes in a plain call), so no upper bound is listed.
  background: z.number().min(0).optional().describe('s to wait; 0: id now'),
  verify: z.boolean().optional().describe('TEE/ models: check signature'),
  eval_store_content: z.boolean().optional(),
});
export type ChatArgs = z.infer<typeof Input>;
