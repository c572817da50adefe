/**
 * Sign-in that finishes from anywhere (issue 33 item 1), over stdio, with no loopback callback
 * reachable: the person's browser is on another machine, so the platform's redirect to
 * `http://127.0.0.1:<port>/callback` never arrives here, and the person pastes that address back:
 * by a form where the client has one, through auth_login's `callback_url` otherwise. The person's
 * part (open the link, press a button) is played over plain HTTP against the sandbox's consent
 * endpoint and the redirect is never followed; stdio.test.ts plays it in Chromium.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { captureStderr, type StdioLike, type StdioLikeOptions, startStdioLike } from '../../auth/server.js';
import { textOf } from '../../helpers/harness.js';
import { answer, openConsent } from '../../sandbox/oauth-helpers.js';

const CHAT = { model: 'openai/gpt-sandbox', prompt: 'ping' };

describe('sign-in with the address pasted back (no loopback reachable)', () => {
  let sandbox: Sandbox;
  const stderr = captureStderr();
  const open: StdioLike[] = [];
  const dirs: string[] = [];
  const outputs: unknown[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true });
  });
  afterAll(async () => {
    for (const server of open) await server.close().catch(() => {});
    stderr.stop();
    await sandbox?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** The person on another machine: approves (or denies) and reads the address the browser is sent to. */
  const elsewhere = async (link: string, decision: 'approve' | 'deny' = 'approve'): Promise<string> => {
    const { consentId } = await openConsent(link);
    if (!consentId) throw new Error(`no consent form at ${link}`);
    const back = await answer(sandbox, consentId, decision);
    if (!back.location) throw new Error(`consent did not redirect (HTTP ${back.status})`);
    return back.location.toString();
  };

  const start = async (options: Omit<StdioLikeOptions, 'baseUrl' | 'configDir'> = {}) => {
    const dir = await mkdtemp(join(tmpdir(), 'orbit-paste-'));
    dirs.push(dir);
    const configDir = join(dir, 'config');
    const server = await startStdioLike({
      baseUrl: sandbox.url,
      configDir,
      ...options,
      signIn: { pasteBack: true, ...options.signIn },
    });
    open.push(server);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await server.call(name, args);
      outputs.push(result);
      return result;
    };
    return { server, configDir, call };
  };
  const storedKey = async (configDir: string): Promise<string | undefined> =>
    JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')).platforms[sandbox.url]?.api_key
      ?.value;
  /** The sign-in link a result carries (clients without elicitation). */
  const linkIn = (text: string) => /sign_in_url: (\S+)/.exec(text)?.[1];

  it('asks for the address by a form after the link, and the same call then succeeds', async () => {
    let address: Promise<string> | undefined;
    const { server, configDir, call } = await start({
      elicit: (url) => {
        address = elsewhere(url);
        return 'accept';
      },
      pasteForm: () => address,
    });
    const result = await call('chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(server.elicited).toHaveLength(1);
    expect(server.forms).toHaveLength(1);
    const callback = new URL(server.elicited[0]!).searchParams.get('callback_url')!;
    expect(server.forms[0]).toContain(`The browser then goes to ${callback}?code=...`);
    expect(server.forms[0]).toContain('copy that whole address from the address bar and paste it here');
    // The link went by URL elicitation, so the form does not repeat it.
    expect(server.forms[0]).not.toContain('/auth?');
    const key = await storedKey(configDir);
    expect(key).toMatch(/^sk-orbit-app-/);
    expect(sandbox.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
  });

  it('puts the link in the form when the client shows forms only', async () => {
    const { server, call } = await start({
      pasteForm: (message) => elsewhere(/Open (\S+) in a browser/.exec(message)![1]!),
    });
    const result = await call('chat', CHAT);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(server.forms[0]).toMatch(
      /^Open http:\/\/127\.0\.0\.1:\d+\/auth\?\S+ in a browser and approve the request\./,
    );
    // The link went to the person in the form, never into the model's context.
    expect(textOf(result)).not.toContain('/auth?');
  });

  it('without elicitation, the result says to paste the address into auth_login, which finishes the sign-in', async () => {
    const { configDir, call } = await start();
    const first = await call('chat', CHAT);
    expect(first.isError).toBe(true);
    const text = textOf(first);
    expect(text).toContain('sign_in_required');
    expect(text).toContain('if that page does not load, copy its whole address from the address bar');
    expect(text).toContain('Next: call auth_login with callback_url "<the address the browser ended on>".');
    const address = await elsewhere(linkIn(text)!);
    const login = await call('auth_login', { callback_url: address });
    expect(login.isError, textOf(login)).toBeFalsy();
    expect(login.structuredContent).toEqual({ signed_in: true, source: 'store' });
    expect(await storedKey(configDir)).toMatch(/^sk-orbit-app-/);
    const second = await call('chat', CHAT);
    expect(second.isError, textOf(second)).toBeFalsy();
  });

  it('refuses an address from another sign-in attempt with a clear line, exchanging nothing', async () => {
    const one = await start();
    const two = await start();
    const linkOne = linkIn(textOf(await one.call('chat', CHAT)))!;
    const linkTwo = linkIn(textOf(await two.call('chat', CHAT)))!;
    const addressOne = await elsewhere(linkOne);
    sandbox.clearRequests();
    const wrong = await two.call('auth_login', { callback_url: addressOne });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain(
      "That address belongs to another sign-in attempt (its state is not this one's), so nothing was exchanged",
    );
    expect(sandbox.requests.filter((r) => r.path.includes('/auth/keys'))).toHaveLength(0);
    // Both attempts are still open: each finishes with its own address.
    expect((await two.call('auth_login', { callback_url: await elsewhere(linkTwo) })).isError).toBeFalsy();
    expect((await one.call('auth_login', { callback_url: addressOne })).isError).toBeFalsy();
    expect(await storedKey(one.configDir)).not.toBe(await storedKey(two.configDir));
  });

  it('takes the code alone; a code from another attempt fails its PKCE check and leaves the flow open', async () => {
    const one = await start();
    const two = await start();
    const linkOne = linkIn(textOf(await one.call('chat', CHAT)))!;
    const linkTwo = linkIn(textOf(await two.call('chat', CHAT)))!;
    const codeOne = new URL(await elsewhere(linkOne)).searchParams.get('code')!;
    const codeTwo = new URL(await elsewhere(linkTwo)).searchParams.get('code')!;
    const wrong = await two.call('auth_login', { callback_url: codeOne });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(
      /The platform did not take that code \(invalid_grant: [^)]*\); it may belong to another/,
    );
    const right = await two.call('auth_login', { callback_url: ` ${codeTwo}\n` });
    expect(right.isError, textOf(right)).toBeFalsy();
    expect(await storedKey(two.configDir)).toMatch(/^sk-orbit-app-/);
  });

  it('refuses what is not an address, and an address without its state', async () => {
    const { call } = await start();
    const address = new URL(await elsewhere(linkIn(textOf(await call('chat', CHAT)))!));
    const garbage = await call('auth_login', { callback_url: 'I clicked approve!' });
    expect(textOf(garbage)).toContain('neither the address the browser ended on nor a code');
    address.searchParams.delete('state');
    const stateless = await call('auth_login', { callback_url: address.toString() });
    expect(stateless.isError).toBe(true);
    expect(textOf(stateless)).toContain('That address has no state');
  });

  it('says a denial plainly when the pasted address carries it', async () => {
    const { configDir, call } = await start();
    const address = await elsewhere(linkIn(textOf(await call('chat', CHAT)))!, 'deny');
    const denied = await call('auth_login', { callback_url: address });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('Sign-in was denied in the browser (access_denied)');
    await expect(readFile(join(configDir, 'credentials.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('says when no sign-in is waiting for a pasted address', async () => {
    const { call } = await start();
    const login = await call('auth_login', {
      callback_url: 'http://127.0.0.1:1/callback?code=abc&state=def',
    });
    expect(login.isError).toBe(true);
    expect(textOf(login)).toContain('No sign-in of this server is waiting for that address');
  });

  it('calls nothing when the person declines the form', async () => {
    const { call } = await start({ elicit: () => 'accept', pasteForm: () => undefined });
    sandbox.clearRequests();
    const result = await call('chat', CHAT);
    expect(textOf(result)).toContain('sign_in_declined');
    expect(sandbox.requests.filter((r) => r.path === '/api/v1/chat/completions')).toHaveLength(0);
  });

  it('never writes a key to stderr or into a result', () => {
    const written = stderr.text() + JSON.stringify(outputs);
    expect(outputs.length).toBeGreaterThan(10);
    expect(written).not.toMatch(/sk-orbit-app-[A-Za-z0-9_-]{8,}/);
  });
});
