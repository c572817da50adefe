/**
 * The built binary (`npm test` builds first): `login`, `whoami`, `logout`, and a stdio server
 * that signs in by URL elicitation and, after a restart, uses the stored key.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { answerInBrowser, approveElsewhere, describeWithBrowser, launchBrowser } from '../../auth/browser.js';

const BIN = 'dist/orbit-mcp.js';

describeWithBrowser(import.meta.url, 'sign-in with the built binary', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const stderrSeen: string[] = [];

  beforeAll(async () => {
    if (!existsSync(BIN))
      throw new Error('dist/orbit-mcp.js is missing: run `npm run build` (npm test does it).');
    [sandbox, browser] = await Promise.all([startSandbox({ quiet: true }), launchBrowser()]);
    dir = await mkdtemp(join(tmpdir(), 'orbit-bin-'));
    env = { ...process.env, ORBIT_CONFIG_DIR: join(dir, 'config'), ORBIT_BASE_URL: sandbox.url, CI: '1' };
    for (const name of [
      'ORBIT_API_KEY',
      'ORBIT_MANAGEMENT_TOKEN',
      'ORBIT_SESSION',
      'DISPLAY',
      'WAYLAND_DISPLAY',
    ])
      delete env[name];
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Runs a CLI command; `onStderr` sees stderr as it arrives. */
  const run = (args: string[], options: { stdin?: string; onStderr?: (text: string) => void } = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        options.onStderr?.(stderr);
      });
      child.stdin.end(options.stdin ?? '');
      child.on('exit', (code) => {
        stderrSeen.push(stderr, stdout);
        resolve({ code, stdout, stderr });
      });
    });
  const storedKey = async () =>
    JSON.parse(await readFile(join(dir, 'config', 'credentials.json'), 'utf8')).platforms[sandbox.url]
      ?.api_key?.value as string | undefined;

  it('`login` prints the link, waits for the browser, and stores the key 0600', async () => {
    let approval: Promise<unknown> | undefined;
    const result = await run(['login'], {
      onStderr: (text) => {
        const url = /^\s+(http\S+\/auth\?\S+)$/m.exec(text)?.[1];
        if (url && !approval) approval = answerInBrowser(browser, url, 'approve');
      },
    });
    await approval;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Open this link in a browser to sign in');
    expect(result.stderr).toContain(`Signed in to ${sandbox.url}`);
    expect((await stat(join(dir, 'config', 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect(await storedKey()).toMatch(/^sk-orbit-app-/);
  });

  it('`whoami` says where each credential comes from, never its value', async () => {
    const result = await run(['whoami']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`platform: ${sandbox.url}`);
    expect(result.stdout).toContain('api_key: yes (from store)');
    expect(result.stdout).toContain('management_token: no');
  });

  it('a stdio server started later uses the stored key', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'bin-e2e', version: '1' });
    await client.connect(transport);
    try {
      const status = await client.callTool({ name: 'auth_status', arguments: {} });
      expect(status.structuredContent).toMatchObject({ can_sign_in: true });
      const result = await client.callTool({
        name: 'chat',
        arguments: { model: 'openai/gpt-sandbox', prompt: 'ping' },
      });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
      stderrSeen.push(stderr);
    }
  });

  it('`logout` removes the key; the stdio server then signs in by URL elicitation', async () => {
    const out = await run(['logout']);
    expect(out.stderr).toContain(`Removed the stored api_key for ${sandbox.url}`);
    expect(await storedKey()).toBeUndefined();

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      // The browser is on this machine here (it reaches the loopback), whatever the display says.
      env: { ...env, ORBIT_SIGN_IN_PASTE: '0' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client(
      { name: 'bin-e2e', version: '1' },
      { capabilities: { elicitation: { url: {} } } },
    );
    const approvals: Promise<unknown>[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (request.params.mode !== 'url') return { action: 'decline' };
      approvals.push(answerInBrowser(browser, request.params.url, 'approve'));
      return { action: 'accept' };
    });
    await client.connect(transport);
    try {
      const result = await client.callTool(
        { name: 'chat', arguments: { model: 'openai/gpt-sandbox', prompt: 'ping' } },
        undefined,
        {
          timeout: 60_000,
        },
      );
      expect(result.isError).toBeFalsy();
      expect(approvals).toHaveLength(1);
      await Promise.all(approvals);
    } finally {
      await client.close();
      stderrSeen.push(stderr);
    }
    expect(await storedKey()).toMatch(/^sk-orbit-app-/);
  });

  it('`login --management-token` reads the token from stdin and never prints it', async () => {
    const token = 'mt-orbit-secret-token-123456';
    const result = await run(['login', '--management-token'], { stdin: `${token}\n` });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Stored the management token');
    const who = await run(['whoami']);
    expect(who.stdout).toContain('management_token: yes (from store)');
    expect(stderrSeen.join('\n')).not.toContain(token);
  });

  it('never prints a key in anything it writes', async () => {
    const key = await storedKey();
    expect(key).toBeDefined();
    const keysSeen = sandbox.requests
      .map((r) => /^Bearer (sk-orbit-app-\S+)$/.exec(r.headers.authorization ?? '')?.[1])
      .filter((k): k is string => k !== undefined);
    expect(keysSeen.length).toBeGreaterThan(0);
    const written = stderrSeen.join('\n');
    for (const k of keysSeen) expect(written).not.toContain(k);
  });
  it('`login` reports a denial plainly, exits 1 and stores nothing', async () => {
    expect((await run(['logout'])).code).toBe(0);
    let denial: Promise<unknown> | undefined;
    const result = await run(['login'], {
      onStderr: (text) => {
        const url = /^\s+(http\S+\/auth\?\S+)$/m.exec(text)?.[1];
        if (url && !denial) denial = answerInBrowser(browser, url, 'deny');
      },
    });
    await denial;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Sign-in was denied in the browser; nothing was stored.');
    expect(await storedKey()).toBeUndefined();
  });

  it('`login` with the browser on another machine: a wrong address is refused, the pasted one signs in', async () => {
    expect((await run(['logout'])).code).toBe(0);
    // No display here: the address is asked for without --paste.
    const child = spawn(process.execPath, [BIN, 'login'], { env });
    let stderr = '';
    const seen = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        const look = () => {
          const match = pattern.exec(stderr);
          if (!match) return;
          child.stderr.off('data', look);
          resolve(match);
        };
        child.stderr.on('data', look);
        look();
      });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const link = (await seen(/^\s+(http\S+\/auth\?\S+)$/m))[1]!;
    await seen(/If that page does not load \(the browser is on another machine\), copy its whole address/);
    const address = new URL(await approveElsewhere(browser, link));
    const another = new URL(address);
    another.searchParams.set('state', 'the-state-of-another-attempt');
    child.stdin.write(`${another}\n`);
    await seen(/Not accepted: That address belongs to another sign-in attempt/);
    child.stdin.write(`  ${address}  \n`);
    expect(await exited, stderr).toBe(0);
    stderrSeen.push(stderr);
    expect(stderr).toContain(`Signed in to ${sandbox.url}`);
    expect(await storedKey()).toMatch(/^sk-orbit-app-/);
  });

  it('`login --sandbox` explains that the in-process sandbox needs no sign-in', async () => {
    const result = await run(['login', '--sandbox']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs no sign-in');
  });
});
