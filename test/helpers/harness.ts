/**
 * In-process end-to-end harness: a real sandbox on a free port, the real server factory, and a
 * real MCP client connected over the SDK's in-memory transport pair.
 */
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { inject } from 'vitest';
import { prompts } from '../../prompts/index.js';
import { resources } from '../../resources/index.js';
import { type ConfigInput, loadConfig } from '../../src/config.js';
import type { Target } from '../../src/context.js';
import { type Credential, type CredentialProvider, StaticCredentials } from '../../src/credentials.js';
import { MediaStore } from '../../src/files/media-store.js';
import { JobStore } from '../../src/jobs/store.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { SANDBOX_DEMO_KEY } from '../../src/sandbox/constants.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import type { SandboxOptions } from '../../src/sandbox/types.js';
import type { Tenant } from '../../src/tenant.js';
import { HttpClient } from '../../src/upstream/client.js';
import type { IdempotencyKeys } from '../../src/upstream/idempotency.js';
import { toolCatalog } from '../../tools/index.js';

export interface HarnessOptions {
  /** Settings as flags would give them (toolsets, readOnly, ...). */
  config?: Partial<Record<keyof ConfigInput, string | boolean>>;
  /** Credentials the server holds; defaults to the sandbox demo key. */
  credentials?: Credential[] | CredentialProvider;
  sandbox?: SandboxOptions;
  /** Reuse a running sandbox instead of starting one. */
  sharedSandbox?: Sandbox;
  /** Folders the client offers as MCP roots (the client then declares the roots capability). */
  roots?: string[];
  /**
   * How the person answers a form elicitation (a confirmation); the client then declares the
   * elicitation capability. Each message asked is kept in `elicited`.
   */
  answerForm?: (message: string) => {
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  };
  /** Folders the operator shares (`--allow-dir`). */
  allowDirs?: string[];
  /** `remote` serves the client as a stranger over HTTP would be served. */
  trust?: 'local' | 'remote';
  tenant?: Tenant;
  /** Job records shared with other harnesses (processes on one store). */
  jobs?: JobStore;
  /** Idempotency-Keys shared with other harnesses (replicas on one store). */
  idempotency?: IdempotencyKeys;
  /** A media registry shared with another harness (two tenants of one server). */
  media?: MediaStore;
  /** Connection secrets to redact. */
  secrets?: string[];
  /** What the server believes it talks to; the sandbox by default (a test may pose as the platform). */
  target?: Target;
}

export interface Harness {
  client: Client;
  /** Messages of the form elicitations the server asked the person (with `answerForm`). */
  elicited: string[];
  sandbox: Sandbox;
  outputDir: string;
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { onprogress?: (p: Progress) => void; signal?: AbortSignal },
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = options.sharedSandbox ?? (await startSandbox({ quiet: true, ...options.sandbox }));
  const outputDir = await mkdtemp(join(tmpdir(), 'orbit-e2e-'));
  const config = loadConfig(
    { baseUrl: sandbox.url, logLevel: 'error', maxRetries: '1', ...options.config },
    {},
  );
  const http = new HttpClient({
    baseUrl: sandbox.url,
    directBaseUrl: sandbox.url,
    timeoutMs: config.timeoutMs,
    retry: { maxRetries: config.maxRetries, baseDelayMs: 5, maxDelayMs: 20 },
    userAgent: 'orbit-mcp-test',
  });
  const credentials =
    Array.isArray(options.credentials) || options.credentials === undefined
      ? new StaticCredentials(
          options.credentials ?? [{ kind: 'api_key', value: SANDBOX_DEMO_KEY, source: 'sandbox' }],
        )
      : options.credentials;
  const server = createMcpServer({
    config,
    client: http,
    credentials,
    tools: toolCatalog,
    resources,
    prompts,
    files: { outputDir, allowDirs: options.allowDirs, media: options.media ?? new MediaStore() },
    trust: options.trust ?? 'local',
    tenant: options.tenant ?? 'local',
    jobs: options.jobs ?? new JobStore(),
    idempotency: options.idempotency,
    secrets: options.secrets,
    target: options.target ?? {
      kind: 'sandbox',
      baseUrl: sandbox.url,
      demoKey: sandbox.demoKey,
      teeRootsPath: sandbox.teeRootsPath,
    },
    version: 'test',
  });
  const client = new Client(
    { name: 'orbit-e2e', version: '1.0.0' },
    {
      capabilities: {
        ...(options.roots ? { roots: { listChanged: true } } : {}),
        ...(options.answerForm ? { elicitation: { form: {} } } : {}),
      },
    },
  );
  const elicited: string[] = [];
  if (options.answerForm) {
    const answer = options.answerForm;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(request.params.message);
      return answer(request.params.message);
    });
  }
  if (options.roots) {
    const roots = options.roots.map((path) => ({ uri: pathToFileURL(path).href, name: path }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    elicited,
    sandbox,
    outputDir,
    async call(name, args = {}, callOptions = {}) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        onprogress: callOptions.onprogress,
        signal: callOptions.signal,
        timeout: 60_000,
      })) as CallToolResult;
      recordOutcome(name, result.isError === true);
      return result;
    },
    async close() {
      await client.close();
      await server.close();
      await http.close();
      if (!options.sharedSandbox) await sandbox.close();
      await rm(outputDir, { recursive: true, force: true });
    },
  };
}

/** Notes which tools end-to-end tests saw succeed and fail (checked by test/setup/tool-coverage.ts). */
export function recordOutcome(tool: string, isError: boolean): void {
  appendFileSync(
    join(inject('toolCoverageDir'), `${process.pid}.jsonl`),
    `${JSON.stringify({ tool, isError })}\n`,
  );
}

/** A suite skipped for a stated reason (no browser), with the tools it would have called. */
export interface SkippedSuite {
  file: string;
  suite: string;
  reason: string;
  tools: string[];
}

/** Notes a skipped suite for the coverage check, which excuses its tools and names it at the end. */
export function recordSkippedFile(skipped: SkippedSuite): void {
  appendFileSync(join(inject('toolCoverageDir'), `${process.pid}.jsonl`), `${JSON.stringify({ skipped })}\n`);
}

/** A tool result's text: its text items in order, one per line (images and links left out). */
export function textOf(result: { content?: readonly object[] }): string {
  return (result.content ?? [])
    .flatMap((item) => ('type' in item && item.type === 'text' && 'text' in item ? [String(item.text)] : []))
    .join('\n');
}

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested reply fields
export type Out = Record<string, any>;

/** structuredContent, typed loosely for assertions. */
export const out = (result: { structuredContent?: unknown }) => result.structuredContent as Out;

/** The text of a resource's contents item ('' for a blob). */
export const resourceText = (c: object | undefined) => (c && 'text' in c ? String(c.text) : '');
