import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Credential, type CredentialKind, StaticCredentials } from '../../src/credentials.js';
import { doctorCommand } from '../../src/doctor/command.js';
import { VIDEO_MODELS } from '../../src/sandbox/catalog/media-models.js';
import {
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { HttpClient } from '../../src/upstream/client.js';
import { forgetDataCatalogs } from '../../tools/data/shared.js';
import { FREE_ROUTES } from '../../tools/doctor-routes.js';
import { credentials } from '../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 25 item 5: `orbit-mcp doctor` reads free routes only and names drift; the tools still answer.
let sandbox: Sandbox;
let h: Harness;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  // The tools read with the credentials doctor reads with.
  h = await startHarness({
    sharedSandbox: sandbox,
    credentials: credentials({
      key: sandbox.demoKey,
      token: SANDBOX_MANAGEMENT_TOKENS.all,
      session: SANDBOX_PEOPLE.demo.session,
    }),
    config: { toolsets: 'all' },
  });
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});
beforeEach(() => {
  sandbox.faults.clear();
  sandbox.clearRequests();
  forgetDataCatalogs();
});

const ALL_CREDENTIALS = (): Credential[] => [
  { kind: 'api_key', value: sandbox.demoKey, source: 'env' },
  { kind: 'management_token', value: SANDBOX_MANAGEMENT_TOKENS.all, source: 'env' },
  { kind: 'session', value: SANDBOX_PEOPLE.demo.session, source: 'env' },
];

function doctor(
  json = true,
  options: { baseUrl?: string; credentials?: Credential[]; require?: CredentialKind[] } = {},
) {
  let printed = '';
  const baseUrl = options.baseUrl ?? sandbox.url;
  const runtime = {
    target: { kind: 'platform' as const, baseUrl },
    client: new HttpClient({
      baseUrl,
      timeoutMs: 10_000,
      retry: { maxRetries: 0 },
      userAgent: 'doctor-test',
    }),
    credentials: new StaticCredentials(options.credentials ?? ALL_CREDENTIALS()),
  };
  return doctorCommand(runtime, FREE_ROUTES, {
    json,
    require: options.require,
    write: (text) => {
      printed += text;
    },
  }).then((result) => ({ ...result, printed }));
}

describe('orbit-mcp doctor', () => {
  it('checks every free route, all ok, exit 0, and touches no paid route', async () => {
    const before = sandbox.state.balance(sandbox.demoKey);
    const { code, outcomes, printed } = await doctor();
    expect(code).toBe(0);
    expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 'ok'));
    expect(outcomes.map((o) => o.route)).toEqual(
      expect.arrayContaining([
        'models (text, detailed)',
        'usage (API key)',
        'API keys',
        'teams',
        'x402 endpoints',
      ]),
    );
    expect(outcomes.some((o) => o.route.startsWith('attestation (TEE/'))).toBe(true);
    expect(JSON.parse(printed)).toMatchObject({ ok: true });
    // The request log: GETs only, no generation route, nothing charged.
    expect(sandbox.requests.length).toBe(outcomes.length);
    for (const r of sandbox.requests) {
      expect(r.method).toBe('GET');
      expect(r.path).not.toMatch(
        /completions|\/messages|\/v1\/responses|\/api\/web|images$|generate|tts|transcribe|embeddings$|\/data\/(?!endpoints)/,
      );
    }
    expect(sandbox.state.balance(sandbox.demoKey)).toBe(before);
  });

  it('names a drift (field, expected, got) with exit 1, while the tools still answer', async () => {
    sandbox.faults.add({
      match: { path: '/api/v1/video-models' },
      persist: true,
      reshape: { drop: ['data.0.id'] },
    });
    sandbox.faults.add({
      match: { path: '/api/management/v1/subscription/usage' },
      persist: true,
      reshape: { set: { degraded: 'no' } },
    });
    const { code, outcomes, printed } = await doctor(false);
    expect(code).toBe(1);
    const video = outcomes.find((o) => o.route === 'models (video)');
    expect(video).toMatchObject({
      status: 'drift',
      drift: [{ field: expect.stringMatching(/^data\[/), got: 'has no id' }],
    });
    const usage = outcomes.find((o) => o.route === 'usage (management)');
    expect(usage).toMatchObject({
      status: 'drift',
      drift: [{ field: 'degraded', expected: 'boolean', got: 'string "no"' }],
    });
    expect(printed).toMatch(/^drift +models \(video\)/m);
    expect(printed).toMatch(/degraded: expected boolean, got string "no"/);
    expect(printed).toMatch(/2 routes drifted/);
    // The tools read the same replies: the video catalog still lists the usable models.
    const listed = await h.call('models_list', { kind: 'video' });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const ids = (out(listed) as { models: { id: string }[] }).models.map((m) => m.id);
    expect(ids).toEqual(VIDEO_MODELS.slice(1).map((m) => m.id));
    const usage2 = await h.call('usage_get', {});
    expect(usage2.isError, textOf(usage2)).toBeFalsy();
  });

  it('names a value the tools tolerate away (a boolean sent as "yes"), while usage_get still answers', async () => {
    sandbox.faults.add({
      match: { path: '/api/subscription/v1/usage' },
      persist: true,
      reshape: { set: { active: 'yes', daily: 5 } },
    });
    const { code, outcomes, printed } = await doctor(false);
    expect(code).toBe(1);
    expect(outcomes.find((o) => o.route === 'usage (API key)')).toEqual({
      route: 'usage (API key)',
      path: '/api/subscription/v1/usage',
      status: 'drift',
      drift: [
        { field: 'active', expected: 'boolean', got: 'string "yes"', tolerated: true },
        { field: 'daily', expected: 'object', got: 'number 5', tolerated: true },
      ],
    });
    expect(printed).toMatch(/^drift +usage \(API key\)/m);
    expect(printed).toMatch(/active: expected boolean, got string "yes" \(the tools answer without it\)/);
    expect(printed).toMatch(/1 route drifted/);
    // The tool reads the same reply: it answers, without the two values it could not read.
    const usage = await h.call('usage_get', {});
    expect(usage.isError, textOf(usage)).toBeFalsy();
    expect(out(usage)).toMatchObject({ quotas: { daily_operations: { used: null } } });
  });

  it('names a list element the tool leaves out, and an x402 rail list it drops', async () => {
    sandbox.faults.add({
      match: { path: '/api/v1/x402/endpoints' },
      persist: true,
      reshape: { set: { 'data.0.path': 5, schemes: 'base-usdc' } },
    });
    const { code, outcomes } = await doctor();
    expect(code).toBe(1);
    const x402 = outcomes.find((o) => o.route === 'x402 endpoints');
    expect(x402).toMatchObject({
      status: 'drift',
      drift: expect.arrayContaining([
        { field: 'schemes', expected: 'array', got: 'string "base-usdc"', tolerated: true },
        {
          field: expect.stringMatching(/^data\[/),
          expected: 'a route record',
          got: expect.stringMatching(/^path: /),
          tolerated: true,
        },
      ]),
    });
    const listed = await h.call('x402_endpoints', {});
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(textOf(listed)).toMatch(/1 route not usable/);
  });

  it('names a key api_keys_read leaves out, while the list still answers', async () => {
    sandbox.faults.add({
      match: { path: '/api/management/v1/api-keys' },
      persist: true,
      reshape: { drop: ['data.0.id'] },
    });
    const { code, outcomes } = await doctor();
    expect(code).toBe(1);
    expect(outcomes.find((o) => o.route === 'API keys')).toMatchObject({
      status: 'drift',
      drift: [{ field: expect.stringMatching(/^data\[/), got: 'has no id', tolerated: true }],
    });
    const listed = await h.call('api_keys_read', { operation: 'list' });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(out(listed)).toMatchObject({ not_usable: expect.stringMatching(/^1 key not usable/) });
  });

  it('names a data endpoint data_endpoints leaves out, while the catalog still answers', async () => {
    sandbox.faults.add({
      match: { path: '/api/v1/data/endpoints' },
      persist: true,
      reshape: { drop: ['data.0.methods'] },
    });
    const { code, outcomes } = await doctor();
    expect(code).toBe(1);
    expect(outcomes.find((o) => o.route === 'data endpoints')).toMatchObject({
      status: 'drift',
      drift: [{ field: expect.stringMatching(/^data\[/), got: 'has no methods', tolerated: true }],
    });
    const listed = await h.call('data_endpoints', {});
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(textOf(listed)).toMatch(/1 data endpoint not usable/);
  });

  it('a numeric string where the tools read one is not drift: read in full, exit 0', async () => {
    sandbox.faults.add({
      match: { path: '/api/subscription/v1/usage' },
      persist: true,
      reshape: { stringify: ['daily.used', 'daily.remaining', 'limits.daily', 'monthly.used'] },
    });
    const { code, outcomes } = await doctor();
    expect(outcomes.find((o) => o.route === 'usage (API key)')).toMatchObject({ status: 'ok' });
    expect(code).toBe(0);
    // The fault did reshape the reply: the sandbox sent strings, the tool reads their numbers.
    const usage = await h.call('usage_get', {});
    expect(out(usage)).toMatchObject({ quotas: { daily_operations: { used: expect.any(Number) } } });
  });

  it('says unreachable for a route that fails: not drift, but not checked either (exit 2)', async () => {
    sandbox.faults.add({ match: { path: '/api/v1/x402/endpoints' }, status: 503, persist: true });
    const { code, outcomes, printed } = await doctor(false);
    expect(outcomes.find((o) => o.route === 'x402 endpoints')).toMatchObject({ status: 'unreachable' });
    expect(code).toBe(2);
    expect(printed).toMatch(/^Could not check 1 route of \d+: 1 unreachable\.$/m);
    expect(printed).toContain('No drift in the routes that were checked.');
    expect(printed).not.toContain('No drift found');
  });

  it('a drift and an unreachable route: exit 1, and both are said', async () => {
    sandbox.faults.add({ match: { path: '/api/v1/x402/endpoints' }, status: 503, persist: true });
    sandbox.faults.add({
      match: { path: '/api/v1/video-models' },
      persist: true,
      reshape: { drop: ['data.0.id'] },
    });
    const { code, printed } = await doctor(false);
    expect(code).toBe(1);
    expect(printed).toMatch(/1 route drifted/);
    expect(printed).toMatch(/Could not check 1 route of \d+: 1 unreachable/);
  });

  it('a platform that answers nothing: every route unreachable, exit 2, "nothing was checked"', async () => {
    const dead = await startSandbox({ quiet: true });
    const url = dead.url;
    await dead.close();
    const { code, outcomes, printed } = await doctor(false, { baseUrl: url });
    expect(outcomes.length).toBeGreaterThan(5);
    expect(outcomes.every((o) => o.status === 'unreachable')).toBe(true);
    expect(code).toBe(2);
    expect(printed).toContain(
      'Could not reach the platform: every route tried failed, so nothing was checked.',
    );
    expect(printed).not.toMatch(/No drift/);
    const json = await doctor(true, { baseUrl: url });
    expect(JSON.parse(json.printed)).toMatchObject({ ok: false, verdict: 'not_checked' });
  });

  it('routes skipped for want of a credential: exit 0 unless that credential is required, then exit 2', async () => {
    const keyOnly = [{ kind: 'api_key' as const, value: sandbox.demoKey, source: 'env' as const }];
    const lenient = await doctor(false, { credentials: keyOnly });
    expect(lenient.code).toBe(0);
    expect(lenient.outcomes.filter((o) => o.status === 'skipped').map((o) => o.route)).toEqual([
      'usage (management)',
      'API keys',
      'retention setting',
      'teams',
    ]);
    expect(lenient.printed).toContain(
      'Not checked, as no management token or session is configured: 4 routes (--require management_token,session makes that fail).',
    );
    const strict = await doctor(false, { credentials: keyOnly, require: ['management_token'] });
    expect(strict.code).toBe(2);
    expect(strict.printed).toMatch(/^Could not check 2 routes of \d+: 2 skipped \(no management token\)\.$/m);
    const none = await doctor(true, { credentials: [], require: ['api_key'] });
    expect(none.code).toBe(2);
    expect(JSON.parse(none.printed).routes).toContainEqual(
      expect.objectContaining({ route: 'usage (API key)', status: 'skipped', credential: 'api_key' }),
    );
  });
});

describe('orbit-mcp doctor, the command', () => {
  it('exits 2 from the built CLI when the platform cannot be reached, and --require is checked', async () => {
    const { execFile } = await import('node:child_process');
    const dead = await startSandbox({ quiet: true });
    await dead.close();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['dist/orbit-mcp.js', 'doctor', ...args],
          { env: { ...process.env, ORBIT_API_KEY: '', ORBIT_BASE_URL: dead.url, ORBIT_MAX_RETRIES: '0' } },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      });
    const unreachable = await run([]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toContain('nothing was checked');
    const wrong = await run(['--require', 'api-key,password']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"password" is not a credential kind');
  });

  it('runs from the built CLI with --sandbox --json and exits 0', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['dist/orbit-mcp.js', 'doctor', '--sandbox', '--json'],
      {
        env: { ...process.env, ORBIT_API_KEY: '', ORBIT_BASE_URL: '' },
      },
    );
    const report = JSON.parse(stdout) as { ok: boolean; routes: Array<{ status: string }> };
    expect(report.ok).toBe(true);
    expect(report.routes.length).toBeGreaterThan(10);
    expect(report.routes.every((r) => r.status === 'ok')).toBe(true);
  });
});
