/**
 * The server as a desktop assistant runs it (stdio against a platform, a person's credential
 * store, sign-in enabled), connected in-process to a real SDK client that may declare URL
 * elicitation.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { prompts } from '../../prompts/index.js';
import { resources } from '../../resources/index.js';
import type { SignInOptions } from '../../src/auth/sign-in.js';
import { CredentialStore } from '../../src/auth/store.js';
import { StoredCredentials } from '../../src/auth/stored.js';
import { loadConfig } from '../../src/config.js';
import type { Credential } from '../../src/credentials.js';
import { MediaStore } from '../../src/files/media-store.js';
import { JobStore } from '../../src/jobs/store.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { HttpClient } from '../../src/upstream/client.js';
import { toolCatalog } from '../../tools/index.js';
import { recordOutcome } from '../helpers/harness.js';

export interface StdioLike {
  client: Client;
  credentials: StoredCredentials;
  /** URLs the server sent by URL elicitation, and the ids it later marked complete. */
  elicited: string[];
  completed: string[];
  /** Messages of the forms the server asked (with `pasteForm`). */
  forms: string[];
  call(
    name: string,
    args?: Record<string, unknown>,
    onprogress?: (p: Progress) => void,
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface StdioLikeOptions {
  baseUrl: string;
  configDir: string;
  explicit?: Credential[];
  /** Declare URL elicitation and answer each request with this (after seeing the URL). */
  elicit?: (url: string) => 'accept' | 'decline' | 'cancel';
  /**
   * Declare form elicitation and answer a form with what the person pastes (undefined: decline).
   * Each form's message is kept in `forms`.
   */
  pasteForm?: (message: string) => Promise<string | undefined> | string | undefined;
  signIn?: Partial<Omit<SignInOptions, 'baseUrl' | 'save'>>;
  warnings?: string[];
}

export async function startStdioLike(options: StdioLikeOptions): Promise<StdioLike> {
  const config = loadConfig({ baseUrl: options.baseUrl, logLevel: 'debug', maxRetries: '0' }, {});
  const http = new HttpClient({
    baseUrl: options.baseUrl,
    timeoutMs: 30_000,
    retry: { maxRetries: 0 },
    userAgent: 'orbit-auth-test',
  });
  const warn = (message: string) => {
    options.warnings?.push(message);
    process.stderr.write(`[orbit-mcp] warning: ${message}\n`);
  };
  const credentials = new StoredCredentials({
    explicit: options.explicit ?? [],
    platform: options.baseUrl,
    store: new CredentialStore(options.configDir, warn),
    log: { warning: warn, info: (message) => process.stderr.write(`[orbit-mcp] info: ${message}\n`) },
    signIn: {
      desktop: false,
      // The loopback path unless a test asks for the paste-back one: never the machine's guess.
      pasteBack: false,
      openBrowser: async () => false,
      waitMs: 30_000,
      ...options.signIn,
    },
  });
  const server = createMcpServer({
    config,
    client: http,
    credentials,
    tools: toolCatalog,
    resources,
    prompts,
    files: { outputDir: options.configDir, media: new MediaStore() },
    trust: 'local',
    tenant: 'local',
    jobs: new JobStore(),
    target: { kind: 'platform', baseUrl: options.baseUrl },
    version: 'test',
  });
  const elicitation = {
    ...(options.elicit ? { url: {} } : {}),
    ...(options.pasteForm ? { form: {} } : {}),
  };
  const client = new Client(
    { name: 'auth-e2e', version: '1.0.0' },
    { capabilities: options.elicit || options.pasteForm ? { elicitation } : {} },
  );
  const elicited: string[] = [];
  const completed: string[] = [];
  const forms: string[] = [];
  if (options.elicit || options.pasteForm) {
    const { elicit, pasteForm } = options;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (request.params.mode === 'url') {
        if (!elicit) return { action: 'decline' };
        elicited.push(request.params.url);
        return { action: elicit(request.params.url) };
      }
      if (!pasteForm) return { action: 'decline' };
      forms.push(request.params.message);
      const pasted = await pasteForm(request.params.message);
      return pasted === undefined
        ? { action: 'decline' }
        : { action: 'accept', content: { callback_url: pasted } };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completed.push(notification.params.elicitationId);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    credentials,
    elicited,
    completed,
    forms,
    async call(name, args = {}, onprogress) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        onprogress,
        timeout: 90_000,
      })) as CallToolResult;
      recordOutcome(name, result.isError === true);
      return result;
    },
    async close() {
      credentials.close();
      await client.close();
      await server.close();
      await http.close();
    },
  };
}

/** Everything written to stderr while the returned stop() is not called. */
export function captureStderr(): { text(): string; stop(): void } {
  const chunks: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    text: () => chunks.join(''),
    stop: () => {
      process.stderr.write = original;
    },
  };
}
