/**
 * One tool, one file: each `test/tools/<area>/<tool>.test.ts` starts one sandbox and one server per
 * file (`useTool`), calls the tool with a real MCP client and snapshots, inline, the whole
 * `CallToolResult` and what the sandbox received (`snap`). A change to a reply or to a request shows
 * as a diff someone reads (sentry-mcp's per-tool snapshots, github-mcp-server's `__toolsnaps__`).
 *
 * The sandbox is deterministic (ids from counters, catalog stamps fixed) but its clock is the real
 * one: the server computes "resets in 5 h" against its own clock, so a sandbox on a fixed epoch
 * would make such replies wrong, not stable. What still differs between runs, `normalise` rewrites:
 * - the sandbox's address and port, and the server's output folder (a fresh temp folder);
 * - secrets the file registered (the demo key, keys, tokens, session cookies) become `<secret:name>`,
 *   so a snapshot never holds one; a secret that reaches a *reply* shows as `<secret:…>` outside a
 *   request header, which test/meta/tool-snapshots.test.ts refuses (`expectNoSecret` checks a raw
 *   result for a secret made during the test);
 * - UUIDs (idempotency keys, server-made ids) become `<uuid:N>`, numbered by first appearance in
 *   one snapshot, so that "the same id twice" stays visible;
 * - attestation nonces (random by design: a fresh one per check) become `<nonce:N>`: values of a
 *   `nonce` field or query parameter and hex after the word "nonce" in text;
 * - media ids (32 random hex digits, in `orbit://media/…` links and saved file names) become
 *   `<media:N>`, numbered like UUIDs;
 * - ISO timestamps become `<time>`, and so does a number within a day of now (epoch seconds or
 *   milliseconds, also as digits inside a string such as `?expires=…`); a date within two days of
 *   today becomes `<date>`, and a relative wait such as `in 5 h` or `in 40 min` becomes
 *   `in <duration>`;
 *   fixed stamps (the catalog's `created`) stay. Numbers in fields named like a measured wait
 *   (`elapsed…`, `duration…`, `waited…`) become `<ms>`;
 * - a text item that is compact JSON is parsed, normalised the same way and written back;
 * - the sandbox's request ids (`req_000123`) become `req_<n>`, since their count depends on earlier
 *   tests and on how often a job was polled;
 * - long base64 (an image or audio item's `data`, a data URL in a request body) becomes
 *   `<base64: N bytes, sha256 0123456789ab>`: readable, yet any change to the bytes shows;
 * - in the request log, transport headers (host, content-length, user-agent, connection, accept-
 *   encoding) are dropped; with `{ polls: 'once' }` runs of the same request (a job's polls, whose
 *   count depends on timing) are kept once. Retries are otherwise all shown.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Harness, type HarnessOptions, startHarness } from '../helpers/harness.js';

/** What one call produced, normalised: the tool's reply and the requests the sandbox saw. */
interface Snap {
  result: CallToolResult;
  sent: SentRequest[];
}

interface SentRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
  status?: number;
}

interface SnapOptions {
  /** 'once' keeps one of each run of identical requests: for tools that poll a job. */
  polls?: 'once' | 'all';
}

export interface ToolTest {
  /** The running harness (valid inside tests). */
  readonly h: Harness;
  /** Calls a tool and returns the normalised reply and the requests it caused. */
  snap(name: string, args?: Record<string, unknown>, options?: SnapOptions): Promise<Snap>;
  /** Names a secret the snapshots must show as `<secret:name>` (keys made during a test). */
  secret(name: string, value: string): void;
  /** Shows a value that differs between runs (a temp folder of the test's own) as `label`. */
  alias(value: string, label: string): void;
}

/** Headers that say nothing about the tool's request, only about the transport. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * Starts a sandbox and the server once for the calling file (beforeAll/afterAll). Options are the
 * harness's (the sandbox is quiet unless they say otherwise).
 */
export function useTool(options: HarnessOptions = {}): ToolTest {
  let harness: Harness | undefined;
  const secrets = new Map<string, string>();
  const aliases = new Map<string, string>();
  beforeAll(async () => {
    harness = await startHarness({
      ...options,
      sandbox: { quiet: true, ...options.sandbox },
    });
    secrets.set('demo-key', harness.sandbox.demoKey);
    // Every credential the server holds is a secret too, named by its kind.
    const held = Array.isArray(options.credentials) ? options.credentials : [];
    for (const { kind, value } of held) {
      if (![...secrets.values()].includes(value)) secrets.set(kind.replaceAll('_', '-'), value);
    }
  });
  afterAll(async () => {
    await harness?.close();
  });
  const test: ToolTest = {
    get h() {
      if (!harness) throw new Error('useTool: the harness starts in beforeAll');
      return harness;
    },
    secret(name, value) {
      secrets.set(name, value);
    },
    alias(value, label) {
      aliases.set(value, label);
    },
    async snap(name, args = {}, options = {}) {
      const h = test.h;
      h.sandbox.clearRequests();
      const result = await h.call(name, args);
      const requests = h.sandbox.requests.map(summarise);
      const sent = options.polls === 'once' ? collapseRuns(requests) : requests;
      const context: Context = {
        replacements: [
          ...[...secrets].map(([label, value]) => [value, `<secret:${label}>`] as [string, string]),
          ...aliases,
          [h.sandbox.url, 'http://sandbox'],
          [`127.0.0.1:${h.sandbox.port}`, 'sandbox'],
          [`localhost:${h.sandbox.port}`, 'sandbox'],
          // Per-platform folders name the host with the port (`127.0.0.1_PORT`).
          [`127.0.0.1_${h.sandbox.port}`, 'sandbox'],
          [h.outputDir, '<output>'],
        ],
        uuids: new Map(),
        media: new Map(),
      };
      for (const [n, nonce] of [...collectNonces({ result, sent })].entries()) {
        context.replacements.push([nonce, `<nonce:${n + 1}>`]);
      }
      return normalise({ result, sent }, context) as Snap;
    },
  };
  return test;
}

/**
 * A private config folder for the calling file (quotes and new keys' secret files are kept there),
 * set as ORBIT_CONFIG_DIR now and removed after the file. Returns its path.
 */
export function usePrivateConfigDir(): string {
  const saved = process.env.ORBIT_CONFIG_DIR;
  const dir = mkdtempSync(join(tmpdir(), 'orbit-snap-config-'));
  process.env.ORBIT_CONFIG_DIR = dir;
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.ORBIT_CONFIG_DIR;
    else process.env.ORBIT_CONFIG_DIR = saved;
  });
  return dir;
}

/** Asserts that no registered secret appears anywhere in a raw (not normalised) result. */
export function expectNoSecret(result: CallToolResult, ...secrets: string[]): void {
  const text = JSON.stringify(result);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

function summarise(request: Harness['sandbox']['requests'][number]): SentRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !TRANSPORT_HEADERS.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    method: request.method,
    path: request.path,
    ...(Object.keys(request.query).length ? { query: request.query } : {}),
    headers,
    ...(request.json !== undefined ? { body: request.json } : request.body ? { body: request.body } : {}),
    ...(request.status !== undefined ? { status: request.status } : {}),
  };
}

/** A job polled five times and one polled twice read the same: each run of one request is kept once. */
function collapseRuns(requests: SentRequest[]): SentRequest[] {
  const kept: SentRequest[] = [];
  let last = '';
  for (const request of requests) {
    const key = JSON.stringify({ ...request, headers: undefined, status: undefined });
    if (key !== last) kept.push(request);
    else kept[kept.length - 1] = request;
    last = key;
  }
  return kept;
}

const NONCE_IN_TEXT = /\bnonce[\s=:"]+([0-9a-f]{32,})/gi;

/** Nonces in order of first appearance (a field or query parameter named `nonce`, or prose). */
function collectNonces(value: unknown, found = new Set<string>(), key = ''): Set<string> {
  if (typeof value === 'string') {
    if (key === 'nonce') found.add(value);
    for (const match of value.matchAll(NONCE_IN_TEXT)) if (match[1]) found.add(match[1]);
  } else if (Array.isArray(value)) {
    for (const item of value) collectNonces(item, found, key);
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) collectNonces(item, found, name);
  }
  return found;
}

interface Context {
  replacements: [string, string][];
  uuids: Map<string, string>;
  media: Map<string, string>;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const MEDIA_ID = /\b[0-9a-f]{32}\b/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const RELATIVE = /\bin \d+ (?:min|h|d|s)\b/g;
const EPOCH_DIGITS = /\b\d{10}(?:\d{3})?\b/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const REQUEST_ID = /\breq_\d{6,}\b/g;
const DURATION_KEY = /elapsed|duration|waited/i;
const DAY_MS = 86_400_000;

/** A number that reads as a stamp of this run: epoch ms or s within a day of now or of the epoch. */
function isRunStamp(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const ms = value < 1e11 ? value * 1000 : value;
  return Math.abs(ms - Date.now()) < DAY_MS;
}

const LONG_BASE64 = /^(data:[\w/+.-]+;base64,)?([A-Za-z0-9+/]{200,}={0,2})$/;

function normaliseString(value: string, context: Context): string {
  const base64 = LONG_BASE64.exec(value);
  if (base64?.[2]) {
    const bytes = Buffer.from(base64[2], 'base64');
    const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    return `${base64[1] ?? ''}<base64: ${bytes.length} bytes, sha256 ${digest}>`;
  }
  let text = value;
  for (const [from, to] of context.replacements) if (from) text = text.split(from).join(to);
  text = text.replace(UUID, (uuid) => numbered(context.uuids, uuid.toLowerCase(), 'uuid'));
  text = text.replace(MEDIA_ID, (id) => numbered(context.media, id, 'media'));
  text = text.replace(EPOCH_DIGITS, (digits) => (isRunStamp(Number(digits)) ? '<time>' : digits));
  return text
    .replace(ISO_TIME, '<time>')
    .replace(DATE, (date) => (Math.abs(Date.parse(date) - Date.now()) < 2 * DAY_MS ? '<date>' : date))
    .replace(RELATIVE, 'in <duration>')
    .replace(REQUEST_ID, 'req_<n>');
}

/** The same value gets the same label within one snapshot: `<kind:N>` by first appearance. */
function numbered(seen: Map<string, string>, value: string, kind: string): string {
  const known = seen.get(value);
  if (known) return known;
  const label = `<${kind}:${seen.size + 1}>`;
  seen.set(value, label);
  return label;
}

/** Compact JSON text (what the server writes for a structured reply) is normalised as data. */
function normaliseText(value: string, context: Context): string {
  if (value.startsWith('{') || value.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (JSON.stringify(parsed) === value) return JSON.stringify(normalise(parsed, context));
    } catch {
      // Not JSON after all: normalised as prose below.
    }
  }
  return normaliseString(value, context);
}

/** Returns a copy with every nondeterministic bit rewritten (see the file's comment). */
function normalise(value: unknown, context: Context, key = ''): unknown {
  if (typeof value === 'string')
    return key === 'text' ? normaliseText(value, context) : normaliseString(value, context);
  if (typeof value === 'number') {
    if (isRunStamp(value)) return '<time>';
    if (DURATION_KEY.test(key)) return '<ms>';
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => normalise(item, context, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        normaliseString(name, context),
        normalise(item, context, name),
      ]),
    );
  }
  return value;
}
