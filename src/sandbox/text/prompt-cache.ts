import { optionalBoolean, optionalNumber, optionalObject, optionalString } from '../body.js';
import { badRequest } from '../errors.js';
import type { SandboxContext } from '../types.js';
import { isRecord, sha256Hex } from '../util.js';
import { estimateTokens } from './tokens.js';

/**
 * Prompt caching (spec 2 §4.1, §4.2): a prompt is a list of segments (tools, system, message
 * blocks); a breakpoint caches the prefix that ends at it. A later request whose prompt starts with
 * a live cached prefix reads it; the longest breakpoint beyond that is written. Entries live for
 * their TTL (5 minutes or 1 hour) and a read refreshes them, as the platform's providers do.
 */
export type CacheTtl = '5m' | '1h';
const TTLS: readonly CacheTtl[] = ['5m', '1h'];
const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

export interface PromptSegment {
  text: string;
  /** Index of the message it belongs to; -1 for tools and a separate system prompt. */
  message: number;
  /** An inline `cache_control` marker: the prefix up to and including this block is cached. */
  marker?: CacheTtl;
}

export interface CachePlan {
  /** Asked for by `caching`, a caching suffix or `prompt_caching.enabled`: only caching providers serve it. */
  required: boolean;
  /** Caching happens (also when only inline markers ask for it and the provider caches). */
  enabled: boolean;
  ttl: CacheTtl;
  /** Zero-based last message of the cached prefix; the whole prompt when undefined. */
  cutAfter?: number;
  /** `stickyprovider`: a failed provider gives 503 instead of a switch that would lose the cache. */
  sticky: boolean;
}

export interface CacheOutcome {
  /** Caching applied to this request (usage then reports cache counts, even when 0). */
  enabled: boolean;
  readTokens: number;
  writeTokens: number;
  ttl: CacheTtl;
  /** Entries this request writes, stored once it is paid for. */
  writes: string[];
}

export const NO_CACHE: CacheOutcome = {
  enabled: false,
  readTokens: 0,
  writeTokens: 0,
  ttl: '5m',
  writes: [],
};

export const joinSegments = (segments: PromptSegment[]): string => segments.map((s) => s.text).join('\n');

/** A `cache_control` value: `{type: "ephemeral", ttl?: "5m" | "1h"}`. */
export function markerTtl(value: unknown, where: string): CacheTtl | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || value.type !== 'ephemeral')
    throw badRequest(
      `${where}.cache_control must be {type: "ephemeral", ttl?}.`,
      'invalid_parameter_value',
      where,
    );
  return optionalString(value, 'ttl', TTLS) ?? '5m';
}

/**
 * Reads `caching`, `prompt_caching` (alias `promptCaching`), the body-level `cache_control` and the
 * sticky-provider flags. `suffix` is the `:caching` suffix; `markers` says inline markers exist.
 */
export function readCachePlan(
  body: Record<string, unknown>,
  options: { suffix: boolean; markers: boolean; messageCount: number; oneHour?: boolean },
): CachePlan {
  const settings = optionalObject(body, 'prompt_caching') ?? optionalObject(body, 'promptCaching') ?? {};
  const ttl = optionalString(settings, 'ttl', TTLS);
  const cutName =
    settings.cut_after_message_index !== undefined ? 'cut_after_message_index' : 'cutAfterMessageIndex';
  const cutAfter = optionalNumber(settings, cutName, { min: 0, integer: true });
  if (cutAfter !== undefined && cutAfter >= options.messageCount) {
    throw badRequest(
      `prompt_caching.${cutName} is ${cutAfter} but there are only ${options.messageCount} messages (zero-based).`,
      'invalid_parameter_value',
      `prompt_caching.${cutName}`,
    );
  }
  const bodyMarker = markerTtl(body.cache_control, 'body');
  const required =
    optionalBoolean(body, 'caching') === true ||
    options.suffix ||
    optionalBoolean(settings, 'enabled') === true;
  const sticky = [
    body.stickyprovider,
    body.stickyProvider,
    body.sticky_provider,
    settings.stickyProvider,
    settings.sticky_provider,
  ];
  for (const flag of sticky) {
    if (flag !== undefined && typeof flag !== 'boolean')
      throw badRequest(
        'The sticky-provider flag must be true or false.',
        'invalid_parameter_value',
        'stickyprovider',
      );
  }
  return {
    required,
    enabled: required || options.markers || bodyMarker !== undefined,
    ttl: ttl ?? bodyMarker ?? (options.oneHour ? '1h' : '5m'),
    ...(cutAfter !== undefined ? { cutAfter } : {}),
    sticky: sticky.includes(true),
  };
}

interface Entry {
  expiresAt: number;
  ttl: CacheTtl;
}

const entries = (ctx: SandboxContext) => ctx.state.collection<Entry>('prompt-cache');

/** What this prompt reads from and writes to the cache of `scope` (key, provider and model). */
export function lookupCache(
  ctx: SandboxContext,
  scope: string,
  segments: PromptSegment[],
  plan: CachePlan,
): CacheOutcome {
  if (!plan.enabled || segments.length === 0) return NO_CACHE;
  const store = entries(ctx);
  const now = ctx.now();
  const prefix = (k: number) => joinSegments(segments.slice(0, k));
  const keyOf = (k: number) => `${scope}|${sha256Hex(prefix(k))}`;
  let readK = 0;
  for (let k = segments.length; k > 0; k--) {
    const entry = store.get(keyOf(k));
    if (entry && entry.expiresAt > now) {
      entry.expiresAt = now + TTL_MS[entry.ttl];
      readK = k;
      break;
    }
  }
  const breakpoints = breakpointsOf(segments, plan).filter((k) => k > readK);
  const longest = Math.max(readK, ...breakpoints);
  const readTokens = readK ? estimateTokens(prefix(readK)) : 0;
  const lastMarker = segments[longest - 1]?.marker;
  return {
    enabled: true,
    readTokens,
    writeTokens: longest > readK ? estimateTokens(prefix(longest)) - readTokens : 0,
    ttl: lastMarker ?? plan.ttl,
    writes: breakpoints.map(keyOf),
  };
}

/** Prefix lengths (in segments) that end at a breakpoint. */
function breakpointsOf(segments: PromptSegment[], plan: CachePlan): number[] {
  const marked = segments.flatMap((s, i) => (s.marker ? [i + 1] : []));
  if (plan.cutAfter !== undefined) {
    const cut = plan.cutAfter;
    marked.push(segments.filter((s) => s.message <= cut).length);
  }
  return marked.length > 0 ? marked.filter((k) => k > 0) : [segments.length];
}

/** Stores what a paid request wrote. */
export function commitCache(ctx: SandboxContext, outcome: CacheOutcome): void {
  const store = entries(ctx);
  for (const key of outcome.writes)
    store.set(key, { expiresAt: ctx.now() + TTL_MS[outcome.ttl], ttl: outcome.ttl });
}
