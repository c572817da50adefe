/**
 * The remote endpoint as an OAuth protected resource: the SDK client's own OAuth support
 * discovers the metadata, registers with the platform (the sandbox started alone), sends a real
 * browser through the consent page, exchanges the code and calls tools over Streamable HTTP.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type RunningHttp, serveHttp } from '../../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../../src/runtime.js';
import { SANDBOX_DEMO_KEY, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { answerInBrowser, describeWithBrowser, launchBrowser } from '../../auth/browser.js';
import { captureStderr } from '../../auth/server.js';
import { openSession, postMcp, rpc } from '../../helpers/http.js';
import { registry } from '../../helpers/registry.js';

/** What an MCP client keeps for OAuth, in memory; the browser is sent to the link it is given. */
class BrowserOAuthProvider implements OAuthClientProvider {
  readonly expectedState = randomUUID();
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Remote e2e client',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The MCP client's own loopback redirect target. */
async function callbackListener(): Promise<{
  url: string;
  next: () => Promise<URLSearchParams>;
  server: Server;
}> {
  let deliver: (params: URLSearchParams) => void = () => {};
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    deliver(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Client got the code</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/oauth/callback`,
    next: () => new Promise((resolve) => (deliver = resolve)),
    server,
  };
}

const CHAT = { model: 'openai/gpt-sandbox', prompt: 'ping' };

describeWithBrowser(import.meta.url, 'the remote endpoint as an OAuth protected resource', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let runtime: Runtime;
  let http: RunningHttp;
  let configDir: string;
  const stderr = captureStderr();
  const replies: unknown[] = [];

  beforeAll(async () => {
    configDir = await mkdtemp(join(tmpdir(), 'orbit-remote-'));
    process.env.ORBIT_CONFIG_DIR = configDir;
    [sandbox, browser] = await Promise.all([startSandbox({ quiet: true }), launchBrowser()]);
    // The sandbox runs alone, as with `orbit-mcp sandbox`: the server treats it as any platform.
    runtime = await createRuntime(loadConfig({ baseUrl: sandbox.url, logLevel: 'debug' }, {}));
    http = await serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false });
  });
  afterAll(async () => {
    stderr.stop();
    await http?.close();
    await runtime?.close();
    await browser?.close();
    await sandbox?.close();
    delete process.env.ORBIT_CONFIG_DIR;
    await rm(configDir, { recursive: true, force: true });
  });

  it('refuses an anonymous request with 401 and points at its resource metadata', async () => {
    const res = await postMcp(http.url, rpc('initialize', {}));
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    const origin = new URL(http.url).origin;
    expect(challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const doc = await (await fetch(`${origin}${path}`)).json();
      expect(doc).toMatchObject({
        resource: http.url,
        authorization_servers: [sandbox.url],
        bearer_methods_supported: ['header'],
        scopes_supported: ['models.read', 'api.use'],
      });
    }
  });

  it('lets the SDK client discover, register, authorize in the browser, exchange and call tools', async () => {
    const listener = await callbackListener();
    try {
      const provider = new BrowserOAuthProvider(listener.url);
      const first = new Client({ name: 'remote-e2e', version: '1' });
      await expect(
        first.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider })),
      ).rejects.toThrow(UnauthorizedError);
      const authorize = provider.authorizationUrl!;
      expect(authorize.origin + authorize.pathname).toBe(`${sandbox.url}/oauth/authorize`);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(sandbox.requests.some((r) => r.path === '/oauth/register' && r.status === 201)).toBe(true);

      const arrived = listener.next();
      const seen = await answerInBrowser(browser, authorize.toString(), 'approve', {
        usd: '5',
        period: 'daily',
      });
      expect(seen.appName).toBe('Remote e2e client');
      expect(seen.redirectHost).toMatch(/^127\.0\.0\.1:\d+$/);
      const params = await arrived;
      expect(params.get('state')).toBe(provider.expectedState);

      const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
      await transport.finishAuth(params.get('code')!);
      const tokens = provider.tokens()!;
      expect(tokens.access_token).toMatch(/^sk-orbit-app-/);
      expect(tokens.token_type).toBe('Bearer');

      const client = new Client({ name: 'remote-e2e', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
      try {
        const result = await client.callTool({ name: 'chat', arguments: CHAT });
        replies.push(result);
        expect(result.isError).toBeFalsy();
        const status = await client.callTool({ name: 'auth_status', arguments: {} });
        replies.push(status);
        expect(status.structuredContent).toMatchObject({
          can_sign_in: false,
          credentials: expect.arrayContaining([{ kind: 'api_key', present: true, source: 'request' }]),
        });
      } finally {
        await client.close();
      }
      const chat = sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1);
      expect(chat?.headers.authorization).toBe(`Bearer ${tokens.access_token}`);
      expect(sandbox.state.getKey(tokens.access_token)?.grant?.spendCap).toMatchObject({
        usd: 5,
        period: 'daily',
      });

      // A reused code is refused by the platform (invalid_grant): codes are single-use.
      const replay = await fetch(`${sandbox.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: provider.clientInformation()!.client_id,
          redirect_uri: listener.url,
          code: params.get('code')!,
          code_verifier: provider.codeVerifier(),
        }).toString(),
      });
      expect(replay.status).toBe(400);
      expect((await replay.json()).error).toBe('invalid_grant');

      expect(stderr.text()).not.toContain(tokens.access_token);
      expect(JSON.stringify(replies)).not.toContain(tokens.access_token);
    } finally {
      listener.server.close();
    }
  });

  it('accepts the key in x-api-key and refuses a session presented with another key', async () => {
    const init = await openSession(http.url, {
      protocolVersion: '2025-06-18',
      headers: { 'x-api-key': SANDBOX_DEMO_KEY },
    });
    expect(init.status).toBe(200);
    const session = init.sessionId;
    const other = sandbox.state.createKey({ label: 'intruder' });
    const hijack = await postMcp(http.url, rpc('tools/list', {}, 2), {
      authorization: `Bearer ${other}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    });
    // Another key's session is indistinguishable from one that does not exist.
    expect(hijack.status).toBe(404);
    expect((await hijack.json()).error).toMatchObject({ code: -32001 });
    const owner = await postMcp(http.url, rpc('tools/list', {}, 3), {
      'x-api-key': SANDBOX_DEMO_KEY,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain('auth_status');
    expect(stderr.text()).not.toContain(other);
  });
});
