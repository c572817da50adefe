/**
 * Sign-in over stdio with a real browser: a tool call that needs a key and has none starts the
 * OAuth PKCE shortcut flow, Chromium approves on the sandbox's consent page, the loopback
 * callback receives the code, the key is stored 0600, and the same call goes on to succeed.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import {
  answerInBrowser,
  approveElsewhere,
  type ConsentSeen,
  describeWithBrowser,
  launchBrowser,
} from '../../auth/browser.js';
import { captureStderr, type StdioLike, startStdioLike } from '../../auth/server.js';
import { textOf } from '../../helpers/harness.js';

const CHAT = { model: 'openai/gpt-sandbox', prompt: 'ping' };

describeWithBrowser(import.meta.url, 'sign-in over stdio, with a real browser', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  const stderr = captureStderr();
  const outputs: unknown[] = [];
  const open: StdioLike[] = [];
  const dirs: string[] = [];
  const browsing: Promise<unknown>[] = [];
  /** Every key the sandbox saw, gathered as calls go (tests clear the request log). */
  const issued = new Set<string>();
  const approveLater = (url: string): 'accept' => {
    browsing.push(answerInBrowser(browser, url, 'approve'));
    return 'accept';
  };

  beforeAll(async () => {
    [sandbox, browser] = await Promise.all([startSandbox({ quiet: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await Promise.allSettled(browsing);
    for (const server of open) await server.close().catch(() => {});
    stderr.stop();
    await browser?.close();
    await sandbox?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const configDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orbit-auth-'));
    dirs.push(dir);
    return join(dir, 'config');
  };
  const start = async (options: Omit<Parameters<typeof startStdioLike>[0], 'baseUrl'>) => {
    const server = await startStdioLike({ baseUrl: sandbox.url, ...options });
    open.push(server);
    return server;
  };
  const call = async (
    server: StdioLike,
    name: string,
    args: Record<string, unknown> = {},
    onprogress?: (p: Progress) => void,
  ) => {
    const result = await server.call(name, args, onprogress);
    outputs.push(result);
    for (const request of sandbox.requests) {
      const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer && request.status === 200 && bearer.startsWith('sk-orbit-app-')) issued.add(bearer);
    }
    return result;
  };
  const storedKey = async (dir: string): Promise<string | undefined> => {
    const file = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'));
    return file.platforms[sandbox.url]?.api_key?.value;
  };

  it('signs in through URL elicitation, stores the key 0600, and the same call succeeds', async () => {
    const dir = await configDir();
    let approval: Promise<ConsentSeen> | undefined;
    const server = await start({
      configDir: dir,
      elicit: (url) => {
        approval = answerInBrowser(browser, url, 'approve');
        return 'accept';
      },
    });
    const progress: Progress[] = [];
    const result = await call(server, 'chat', CHAT, (p) => progress.push(p));
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as { text: string }).text).toContain('ping');

    const seen = await approval!;
    expect(seen).toMatchObject({
      appName: 'orbit-mcp',
      account: 'demo@sandbox.invalid',
      finalHeading: 'Signed in',
    });
    expect(seen.redirectHost).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(seen.balance).toMatch(/USD$/);
    expect(seen.scopes).toContain('models.read');
    expect(seen.scopes).toContain('api.use');
    expect(seen.warning).toContain('spend');
    expect(new URL(seen.finalUrl).pathname).toBe('/callback');

    expect(server.elicited).toHaveLength(1);
    const link = new URL(server.elicited[0]!);
    expect(link.pathname).toBe('/auth');
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('scope')).toBe('models.read api.use');
    expect(link.searchParams.get('callback_url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(server.completed).toHaveLength(1);
    expect(progress.some((p) => p.message?.includes('Waiting for approval in the browser'))).toBe(true);
    // The link went to the person by elicitation and never into the model's context.
    expect(JSON.stringify(result)).not.toContain(link.searchParams.get('state')!);

    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const key = await storedKey(dir);
    expect(key).toMatch(/^sk-orbit-app-/);
    const chats = sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions');
    expect(chats.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

    const status = await call(server, 'auth_status');
    expect(status.structuredContent).toMatchObject({
      platform: 'platform',
      can_sign_in: true,
      credentials: expect.arrayContaining([{ kind: 'api_key', present: true, source: 'store' }]),
    });
    const login = await call(server, 'auth_login');
    expect(login.structuredContent).toEqual({ signed_in: true, source: 'store' });
  });

  it('uses the stored key after a restart, without asking again', async () => {
    const dir = await configDir();
    const first = await start({ configDir: dir, elicit: approveLater });
    expect((await call(first, 'auth_login')).structuredContent).toEqual({ signed_in: true, source: 'store' });
    await first.close();

    const second = await start({ configDir: dir, elicit: () => 'decline' });
    const result = await call(second, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(second.elicited).toHaveLength(0);
  });

  it('without elicitation or a desktop, returns the link at once; after approving, the next call succeeds', async () => {
    const dir = await configDir();
    const server = await start({ configDir: dir });
    const first = await call(server, 'chat', CHAT);
    expect(first.isError).toBe(true);
    const text = textOf(first);
    expect(text).toContain('sign_in_required');
    const url = /sign_in_url: (\S+)/.exec(text)?.[1];
    expect(url).toBeDefined();
    const seen = await answerInBrowser(browser, url!, 'approve');
    expect(seen.finalHeading).toBe('Signed in');
    const second = await call(server, 'chat', CHAT);
    expect(second.isError, textOf(second)).toBeFalsy();
  });

  it('reports a denial plainly, stores nothing, and starts over on the next call', async () => {
    const dir = await configDir();
    let decision: 'approve' | 'deny' = 'deny';
    let answered: Promise<ConsentSeen> | undefined;
    const server = await start({
      configDir: dir,
      elicit: (url) => {
        answered = answerInBrowser(browser, url, decision);
        return 'accept';
      },
    });
    const denied = await call(server, 'chat', CHAT);
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('sign_in_failed');
    expect(textOf(denied)).toContain('denied in the browser (access_denied)');
    expect((await answered!).finalHeading).toBe('Sign-in cancelled');
    await expect(stat(join(dir, 'credentials.json'))).rejects.toThrow();

    decision = 'approve';
    const retried = await call(server, 'chat', CHAT);
    expect(retried.isError, textOf(retried)).toBeFalsy();
    expect(server.elicited).toHaveLength(2);
    expect(server.elicited[0]).not.toBe(server.elicited[1]);
  });

  it('calls nothing when the person declines to open the sign-in page', async () => {
    const server = await start({ configDir: await configDir(), elicit: () => 'decline' });
    sandbox.clearRequests();
    const result = await call(server, 'chat', CHAT);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('sign_in_declined');
    expect(sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions')).toHaveLength(0);
    // auth_login asked directly says the same, and stores nothing.
    const login = await call(server, 'auth_login');
    expect(login.isError).toBe(true);
    expect(textOf(login)).toMatch(/sign_in_declined[\s\S]*Fix:/);
  });

  it('refuses a callback with a wrong state at the loopback, and the real approval still works', async () => {
    const server = await start({ configDir: await configDir() });
    const url = new URL(/sign_in_url: (\S+)/.exec(textOf(await call(server, 'chat', CHAT)))![1]!);
    const callback = new URL(url.searchParams.get('callback_url')!);
    callback.searchParams.set('code', 'forged');
    callback.searchParams.set('state', 'not-the-state');
    const forged = await fetch(callback);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('invalid_state');
    expect((await answerInBrowser(browser, url.toString(), 'approve')).finalHeading).toBe('Signed in');
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
  });

  it('on a timeout returns the link; a later approval lets the next call succeed without a new sign-in', async () => {
    const server = await start({
      configDir: await configDir(),
      signIn: { desktop: true, openBrowser: async () => true, waitMs: 1_000 },
    });
    const pending = await call(server, 'chat', CHAT);
    expect(pending.isError).toBe(true);
    expect(textOf(pending)).toContain('sign_in_pending');
    const url = /sign_in_url: (\S+)/.exec(textOf(pending))![1]!;
    expect((await answerInBrowser(browser, url, 'approve')).finalHeading).toBe('Signed in');
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
  });

  it('discards a stored key the platform rejects, without retrying, and the next call asks to sign in', async () => {
    const dir = await configDir();
    const server = await start({ configDir: dir, elicit: () => 'decline' });
    server.credentials.save('api_key', 'sk-orbit-app-revoked-key-0000', { via: 'sign-in' });
    sandbox.clearRequests();
    const rejected = await call(server, 'chat', CHAT);
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toContain('HTTP 401');
    expect(sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions')).toHaveLength(1);
    expect(await storedKey(dir)).toBeUndefined();
    const next = await call(server, 'chat', CHAT);
    expect(textOf(next)).toContain('sign_in_declined');
    expect(server.elicited).toHaveLength(1);
    expect(stderr.text()).toContain('it was discarded');
  });

  it('prefers an explicitly configured key over the stored one', async () => {
    const dir = await configDir();
    const explicitKey = sandbox.state.createKey({ label: 'explicit' });
    const server = await start({
      configDir: dir,
      explicit: [{ kind: 'api_key', value: explicitKey, source: 'env' }],
    });
    server.credentials.save('api_key', 'sk-orbit-app-stored-but-unused', { via: 'sign-in' });
    sandbox.clearRequests();
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sandbox.requests.at(-1)?.headers.authorization).toBe(`Bearer ${explicitKey}`);
  });

  it('signs out with auth_logout, and the next call asks to sign in again', async () => {
    const dir = await configDir();
    const server = await start({ configDir: dir, elicit: approveLater });
    expect((await call(server, 'auth_login')).structuredContent).toEqual({
      signed_in: true,
      source: 'store',
    });
    const out = await call(server, 'auth_logout');
    expect(out.structuredContent).toEqual({ removed: ['api_key'] });
    expect(await storedKey(dir)).toBeUndefined();
    expect((await call(server, 'auth_logout')).structuredContent).toEqual({ removed: [] });
    expect((await call(server, 'auth_login')).structuredContent).toEqual({
      signed_in: true,
      source: 'store',
    });
    expect(server.elicited).toHaveLength(2);
  });

  it('treats a corrupt credential file as empty with a warning, and keeps it aside when writing', async () => {
    const dir = await configDir();
    const warnings: string[] = [];
    const server = await start({ configDir: dir, warnings, elicit: approveLater });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'credentials.json'), '{"version": 1, "platforms": {', { mode: 0o600 });
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(warnings.join('\n')).toContain('not valid JSON');
    expect(warnings.join('\n')).toContain('.corrupt-');
    expect(await storedKey(dir)).toMatch(/^sk-orbit-app-/);
  });

  it('with the browser on another machine (no loopback reachable), finishes by the address pasted into the form', async () => {
    const dir = await configDir();
    let address: Promise<string> | undefined;
    const server = await start({
      configDir: dir,
      signIn: { pasteBack: true },
      elicit: (url) => {
        address = approveElsewhere(browser, url);
        return 'accept';
      },
      pasteForm: () => address,
    });
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    const sentTo = new URL(await address!);
    expect(`${sentTo.origin}${sentTo.pathname}`).toBe(
      new URL(server.elicited[0]!).searchParams.get('callback_url'),
    );
    expect(server.forms).toHaveLength(1);
    const key = await storedKey(dir);
    expect(key).toMatch(/^sk-orbit-app-/);
    expect(sandbox.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
    // The loopback, never reached, closed once the pasted address finished the flow.
    await expect(fetch(sentTo)).rejects.toThrow();
  });

  it("with the browser on another machine and no elicitation, auth_login takes the pasted address; another attempt's is refused", async () => {
    const dir = await configDir();
    const server = await start({ configDir: dir, signIn: { pasteBack: true } });
    const other = await start({ configDir: await configDir(), signIn: { pasteBack: true } });
    const linkOf = async (s: StdioLike) =>
      /sign_in_url: (\S+)/.exec(textOf(await call(s, 'chat', CHAT)))![1]!;
    const [mine, theirs] = await Promise.all([linkOf(server), linkOf(other)]);
    const wrong = await call(server, 'auth_login', { callback_url: await approveElsewhere(browser, theirs) });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('That address belongs to another sign-in attempt');
    const login = await call(server, 'auth_login', { callback_url: await approveElsewhere(browser, mine) });
    expect(login.structuredContent).toEqual({ signed_in: true, source: 'store' });
    const result = await call(server, 'chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
  });

  it('never writes a key to stderr or into a result', () => {
    expect(issued.size).toBeGreaterThan(3);
    const written = stderr.text() + JSON.stringify(outputs);
    for (const key of issued) expect(written).not.toContain(key);
    expect(written).not.toMatch(/sk-orbit-app-[A-Za-z0-9_-]{20,}/);
  });
});
