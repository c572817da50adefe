import type { Context } from 'hono';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { type Generation, generate, settle } from './generate.js';
import { moderate } from './moderation.js';
import type { ReasoningOptions } from './options.js';
import { type CachePlan, joinSegments, lookupCache, NO_CACHE, type PromptSegment } from './prompt-cache.js';
import type { ResolvedModel } from './resolve.js';
import { rememberRoute, routeText } from './routing.js';
import type { ToolResult, ToolSetup } from './tools.js';

/** One text request in the shape every format is read into. */
export interface TextRequest {
  resolved: ResolvedModel;
  /** The prompt in order: tools, system, message blocks. */
  segments: PromptSegment[];
  lastUserText: string;
  earlierUserTexts?: string[];
  toolResults?: ToolResult[];
  tools?: ToolSetup;
  maxTokens?: number;
  thinking?: boolean;
  reasoning?: ReasoningOptions;
  cache: CachePlan;
}

/**
 * Routes, moderates, consults the prompt cache, generates and charges, in that order, so every
 * refusal (400, 402, 503) comes before a byte of the reply is sent.
 */
export function runText(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  key: KeyRecord,
  request: TextRequest,
): Generation {
  const { resolved, cache: plan } = request;
  const route = routeText(c, ctx, key, resolved, {
    caching: plan.required,
    affinity: plan.enabled,
    tools: resolved.tools,
    sticky: plan.sticky,
  });
  const promptText = joinSegments(request.segments);
  const moderationUsd = moderate(c, ctx, key, promptText);
  const caching = plan.enabled && route.provider.caching(resolved.model);
  const scope = `${key.key}|${route.provider.slug}|${resolved.model.id}`;
  const gen = generate(ctx.state, {
    resolved,
    promptText,
    lastUserText: request.lastUserText,
    ...(request.earlierUserTexts ? { earlierUserTexts: request.earlierUserTexts } : {}),
    ...(request.toolResults ? { toolResults: request.toolResults } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    thinking: request.thinking === true,
    ...request.reasoning,
    cache: caching ? lookupCache(ctx, scope, request.segments, plan) : NO_CACHE,
    route,
    moderationUsd,
  });
  settle(ctx, key, gen);
  if (caching) rememberRoute(ctx, key, resolved.model.id, route);
  return gen;
}

/** Headers every text reply carries: the provider that served it. */
export const textHeaders = (gen: Generation): Record<string, string> =>
  gen.provider ? { 'X-Provider': gen.provider } : {};

/** The `omitUsage` fault: the reply leaves usage out, as some providers do (pricing stays). */
export const usageOmitted = (c: Context<SandboxEnv>): boolean => c.get('fault')?.omitUsage === true;
