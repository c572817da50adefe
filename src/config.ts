import { delimiter, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { storeUrlProblem } from './store/open.js';
import { ENV_PREFIX } from './word.js';

/**
 * Every toolset of DESIGN.md, with whether it is on by default once it has tools: the defaults are
 * worked out against the tool catalog at run time (`resolveToolsets`).
 */
export const TOOLSETS = {
  models: true,
  text: true,
  search: true,
  data: true,
  media: true,
  embeddings: true,
  payments: true,
  evals: false,
  account: true,
  keys: false,
  teams: false,
  verify: true,
} as const;
export type Toolset = keyof typeof TOOLSETS;
const toolsetNames = Object.keys(TOOLSETS) as [Toolset, ...Toolset[]];
export const ALL_TOOLSETS: readonly Toolset[] = toolsetNames;

/** What a configuration names: some toolsets, or `all`. Not set means the defaults. */
export type ToolsetChoice = Toolset[] | 'all';

/**
 * The toolsets a choice turns on. Without one: those marked on in TOOLSETS that have tools, so a
 * toolset whose tools have not shipped is never a default (nor named as on in messages).
 */
export function resolveToolsets(
  choice: ToolsetChoice | undefined,
  hasTools: (toolset: Toolset) => boolean,
): Toolset[] {
  if (choice === 'all') return [...toolsetNames];
  return choice ?? toolsetNames.filter((name) => TOOLSETS[name] && hasTools(name));
}

/** What to tell the operator when a choice names toolsets that have no tools (`all` names none). */
export function emptyToolsetsWarning(
  choice: ToolsetChoice | undefined,
  hasTools: (toolset: Toolset) => boolean,
): string | undefined {
  if (choice === undefined || choice === 'all') return undefined;
  const empty = choice.filter((name) => !hasTools(name));
  if (empty.length === 0) return undefined;
  const one = empty.length === 1;
  return `${one ? 'Toolset' : 'Toolsets'} ${empty.map((name) => `"${name}"`).join(', ')} ${one ? 'has' : 'have'} no tools in this version, so ${one ? 'it adds' : 'they add'} nothing. Toolsets with tools: ${toolsetNames.filter(hasTools).join(', ')}.`;
}

/** An http(s) base URL: another scheme would start, then fail every call (and show in sign-in links). */
const url = z
  .string()
  .url('must be an absolute URL such as https://api.example.com')
  .refine((value) => /^https?:\/\//i.test(value), {
    message: 'must be an http:// or https:// URL, such as https://api.example.com',
  })
  .transform((value) => value.replace(/(?<!\/)\/+$/, ''));

const ON_WORDS = ['1', 'true', 'yes', 'on'];
const OFF_WORDS = ['0', 'false', 'no', 'off', ''];

/**
 * How every on/off environment variable reads: 1/true/yes/on are on, 0/false/no/off (or empty)
 * are off, in any case; anything else is undefined (not a boolean).
 */
export function parseBoolean(value: string | undefined): boolean | undefined {
  const word = (value ?? '').trim().toLowerCase();
  if (ON_WORDS.includes(word)) return true;
  if (OFF_WORDS.includes(word)) return false;
  return undefined;
}

const booleanish = z.union([z.boolean(), z.string()]).transform((value, ctx) => {
  if (typeof value === 'boolean') return value;
  const parsed = parseBoolean(value);
  if (parsed !== undefined) return parsed;
  ctx.addIssue({
    code: 'custom',
    message: `"${value}" is not on or off; use 1/true/yes/on or 0/false/no/off`,
  });
  return z.NEVER;
});

const toolsetList = z
  .string()
  .transform((value, ctx): ToolsetChoice => {
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.includes('all')) return 'all';
    for (const name of names) {
      if (!(name in TOOLSETS)) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown toolset "${name}"; use a comma-separated list of ${toolsetNames.join(', ')} or all`,
        });
        return z.NEVER;
      }
    }
    return names as Toolset[];
  })
  .pipe(z.union([z.literal('all'), z.array(z.enum(toolsetNames)).min(1, 'name at least one toolset')]));

/** Folders, separated like PATH (`:` here, `;` on Windows); relative ones resolve against the working folder. */
const folderList = z.string().transform((value) =>
  value
    .split(delimiter)
    .map((folder) => folder.trim())
    .filter(Boolean)
    .map((folder) => (isAbsolute(folder) ? folder : resolve(folder))),
);

/** One token bucket's settings: `count` requests a `unit`, and bursts of up to `burst`. */
export interface RateLimit {
  count: number;
  unit: 'second' | 'minute' | 'hour';
  burst: number;
}

/** HTTP request-rate limits: every request per key and per address, and paid calls per key. Absent: off. */
export interface RateLimits {
  key?: RateLimit;
  address?: RateLimit;
  paid?: RateLimit;
}

/**
 * Far above any honest client (an agent, or a framework fanning out on one key), far below a flood
 * (issue 34 measured 1,250 calls/s and 736 paid calls/s from one key). Bursts are 4 s of the rate.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  key: { count: 50, unit: 'second', burst: 200 },
  address: { count: 200, unit: 'second', burst: 800 },
  paid: { count: 10, unit: 'second', burst: 40 },
};

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3_600 } as const;
const UNITS: Record<string, RateLimit['unit']> = {
  s: 'second',
  sec: 'second',
  second: 'second',
  m: 'minute',
  min: 'minute',
  minute: 'minute',
  h: 'hour',
  hour: 'hour',
};

/** Tokens a second of a bucket. */
export const perSecond = (limit: RateLimit) => limit.count / UNIT_SECONDS[limit.unit];

/**
 * `off`, or a comma-separated list of `key=`, `address=` and `paid=` each set to `off` or
 * `<count>/<s|m|h>[:<burst>]` (`key=50/s:200`); a scope not named keeps its default, a burst not
 * given is 4 s of the rate (at least 1).
 */
function parseRateLimits(value: string): RateLimits | string {
  const text = value.trim().toLowerCase();
  if (text === 'off') return {};
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS };
  for (const item of text.split(',').map((part) => part.trim())) {
    if (!item) continue;
    const [scope, setting = ''] = item.split('=').map((part) => part.trim());
    if (scope !== 'key' && scope !== 'address' && scope !== 'paid')
      return `unknown scope "${scope}"; use key=, address= or paid= (or off for no limits)`;
    if (setting === 'off') {
      delete limits[scope];
      continue;
    }
    const match = /^(\d+(?:\.\d+)?)\s*\/\s*([a-z]+)(?:\s*:\s*(\d+))?$/.exec(setting);
    const unit = match && UNITS[match[2]!];
    const count = Number(match?.[1]);
    if (!match || !unit || !(count > 0))
      return `"${item}" is not a rate; write ${scope}=<count>/<s|m|h>[:<burst>], e.g. ${scope}=50/s:200, or ${scope}=off`;
    const limit = { count, unit, burst: 0 };
    limit.burst = match[3] !== undefined ? Number(match[3]) : Math.max(1, Math.ceil(perSecond(limit) * 4));
    if (limit.burst < 1) return `"${item}": the burst must be at least 1`;
    limits[scope] = limit;
  }
  return limits;
}

export const ConfigSchema = z.object({
  baseUrl: url.optional(),
  directBaseUrl: url.optional(),
  apiKey: z.string().min(1).optional(),
  managementToken: z.string().min(1).optional(),
  session: z.string().min(1).optional(),
  /** Not set: the default toolsets, which depend on the tools that exist (see resolveToolsets). */
  toolsets: toolsetList.optional(),
  readOnly: booleanish.default(false),
  outputDir: z.string().min(1).optional(),
  allowDirs: folderList.default([]),
  timeoutMs: z.coerce.number().int().min(1000, 'must be at least 1000 ms').max(3_600_000).default(120_000),
  maxRetries: z.coerce.number().int().min(0).max(10).default(2),
  maxSpendUsd: z.coerce.number().positive('must be a positive amount of USD').optional(),
  /** HTTP: the span over which a key's budget is counted before it starts again at 0 (ms). */
  budgetWindow: z
    .union([z.number(), z.string()])
    .transform((value, ctx) => {
      const ms = durationMs(value);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 24h, 90m or 7d' });
        return z.NEVER;
      }
      return ms;
    })
    .default(24 * 3_600_000),
  logLevel: z.enum(['debug', 'info', 'warning', 'error', 'silent']).default('info'),
  /** Shared state for several replicas (Redis or Valkey); not set: this process's memory. */
  store: z
    .string()
    .refine((value) => storeUrlProblem(value) === undefined, {
      message: 'must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379',
    })
    .optional(),
  /** On SIGTERM, how long running calls may take to finish before they hand their job back. */
  drainMs: z.coerce.number().int().min(0).max(600_000).default(25_000),
  /** This process's name in logs and call leases; defaults to host name and process id. */
  replicaId: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'letters, digits, dot, dash or underscore, at most 64')
    .optional(),
  /** How long a replica's hold on a running call lasts without a heartbeat (it renews every third of it). */
  leaseMs: z.coerce.number().int().min(300).max(300_000).default(15_000),
  /**
   * HTTP: how many proxies in front append to X-Forwarded-For, so the client's address is read
   * from it for the per-address limits. 0 ignores the header, which any client can write.
   */
  trustProxy: z.coerce.number().int().min(0).max(10).default(0),
  /** HTTP: request-rate limits per key, per address and for paid calls (`parseRateLimits`). */
  rateLimit: z
    .string()
    .transform((value, ctx) => {
      const limits = parseRateLimits(value);
      if (typeof limits !== 'string') return limits;
      ctx.addIssue({ code: 'custom', message: limits });
      return z.NEVER;
    })
    .default(DEFAULT_RATE_LIMITS),
  /** HTTP: where the audit log goes, one JSON line per tool call: `stderr`, a file, or `off`. */
  auditLog: z
    .string()
    .trim()
    .min(1, 'name a file, stderr or off')
    .transform((value) => (['stderr', 'off'].includes(value.toLowerCase()) ? value.toLowerCase() : value))
    .default('stderr'),
  /**
   * HTTP: Host (and Origin) names accepted besides loopback on the server's own port, as `host` or
   * `host:port`: the name clients use behind a proxy, an Ingress or a Kubernetes Service.
   */
  allowedHosts: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/,
            'name hosts as mcp.example.com or mcp.example.com:8443 (no scheme, no path), separated by commas',
          ),
      ),
    )
    .optional(),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Environment variable for each setting; flags of the same meaning win. */
export const ENV_NAMES: Record<keyof ConfigInput, string> = {
  baseUrl: `${ENV_PREFIX}BASE_URL`,
  directBaseUrl: `${ENV_PREFIX}DIRECT_BASE_URL`,
  apiKey: `${ENV_PREFIX}API_KEY`,
  managementToken: `${ENV_PREFIX}MANAGEMENT_TOKEN`,
  session: `${ENV_PREFIX}SESSION`,
  toolsets: `${ENV_PREFIX}TOOLSETS`,
  readOnly: `${ENV_PREFIX}READ_ONLY`,
  outputDir: `${ENV_PREFIX}OUTPUT_DIR`,
  allowDirs: `${ENV_PREFIX}ALLOW_DIRS`,
  timeoutMs: `${ENV_PREFIX}TIMEOUT_MS`,
  maxRetries: `${ENV_PREFIX}MAX_RETRIES`,
  maxSpendUsd: `${ENV_PREFIX}MAX_SPEND_USD`,
  budgetWindow: `${ENV_PREFIX}BUDGET_WINDOW`,
  logLevel: `${ENV_PREFIX}LOG_LEVEL`,
  store: `${ENV_PREFIX}STORE_URL`,
  drainMs: `${ENV_PREFIX}DRAIN_MS`,
  replicaId: `${ENV_PREFIX}REPLICA_ID`,
  leaseMs: `${ENV_PREFIX}LEASE_MS`,
  trustProxy: `${ENV_PREFIX}TRUST_PROXY`,
  rateLimit: `${ENV_PREFIX}RATE_LIMIT`,
  auditLog: `${ENV_PREFIX}AUDIT_LOG`,
  allowedHosts: `${ENV_PREFIX}ALLOWED_HOSTS`,
};

/** `90m`, `24h`, `7d` (a bare number is hours), between a minute and a year; else undefined. */
function durationMs(value: number | string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([mhd]?)$/.exec(String(value).trim());
  if (!match) return undefined;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, '': 3_600_000 }[match[2] as 'm' | 'h' | 'd' | ''];
  const ms = Math.round(Number(match[1]) * unit);
  return ms >= 60_000 && ms <= 366 * 86_400_000 ? ms : undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the environment once and merges flags over it. A bad value is a start-up error that
 * names the variable or flag and what a good value looks like.
 */
export function loadConfig(
  flags: Partial<Record<keyof ConfigInput, string | boolean | undefined>> = {},
  env: NodeJS.ProcessEnv = process.env,
): Config {
  const raw: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const key of Object.keys(ENV_NAMES) as (keyof ConfigInput)[]) {
    const fromFlag = flags[key];
    const fromEnv = env[ENV_NAMES[key]];
    if (fromFlag !== undefined) {
      raw[key] = fromFlag;
      origin[key] = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    } else if (fromEnv !== undefined && fromEnv !== '') {
      raw[key] = fromEnv;
      origin[key] = ENV_NAMES[key];
    }
  }
  // Parsed once per process: zod compiling a fast path for it would cost more than it saves
  // (about 4 ms of the cold start, measured).
  const parsed = ConfigSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      return `${origin[key] ?? key}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
