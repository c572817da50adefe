import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_RATE_LIMITS,
  emptyToolsetsWarning,
  loadConfig,
  resolveToolsets,
  TOOLSETS,
  type Toolset,
} from '../../src/config.js';

/** Runs loadConfig and returns the ConfigError message, failing when it does not throw one. */
function configError(...args: Parameters<typeof loadConfig>): string {
  try {
    loadConfig(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  it('uses defaults when nothing is set', () => {
    expect(loadConfig({}, {})).toEqual({
      readOnly: false,
      allowDirs: [],
      timeoutMs: 120_000,
      maxRetries: 2,
      budgetWindow: 86_400_000,
      logLevel: 'info',
      drainMs: 25_000,
      leaseMs: 15_000,
      trustProxy: 0,
      rateLimit: DEFAULT_RATE_LIMITS,
      auditLog: 'stderr',
    });
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig(
      {},
      {
        ORBIT_BASE_URL: 'https://api.example.com/',
        ORBIT_DIRECT_BASE_URL: 'https://direct.example.com//',
        ORBIT_API_KEY: 'sk-1',
        ORBIT_MANAGEMENT_TOKEN: 'mt-1',
        ORBIT_SESSION: 'sess',
        ORBIT_TOOLSETS: 'models, keys',
        ORBIT_READ_ONLY: 'true',
        ORBIT_OUTPUT_DIR: '/tmp/out',
        ORBIT_ALLOW_DIRS: '/srv/media:/data/in',
        ORBIT_TIMEOUT_MS: '5000',
        ORBIT_MAX_RETRIES: '0',
        ORBIT_BUDGET_WINDOW: '12h',
        ORBIT_LOG_LEVEL: 'debug',
        ORBIT_STORE_URL: 'redis://127.0.0.1:6379',
        ORBIT_DRAIN_MS: '1000',
        ORBIT_REPLICA_ID: 'replica-1',
        ORBIT_LEASE_MS: '3000',
        ORBIT_TRUST_PROXY: '2',
        ORBIT_RATE_LIMIT: 'key=5/m:10,paid=off',
        ORBIT_AUDIT_LOG: '/var/log/orbit/audit.jsonl',
        ORBIT_ALLOWED_HOSTS: 'orbit-mcp, mcp.example.com:8443,',
      },
    );
    expect(config).toEqual({
      baseUrl: 'https://api.example.com',
      directBaseUrl: 'https://direct.example.com',
      apiKey: 'sk-1',
      managementToken: 'mt-1',
      session: 'sess',
      toolsets: ['models', 'keys'],
      readOnly: true,
      outputDir: '/tmp/out',
      allowDirs: ['/srv/media', '/data/in'],
      timeoutMs: 5000,
      maxRetries: 0,
      budgetWindow: 12 * 3_600_000,
      logLevel: 'debug',
      store: 'redis://127.0.0.1:6379',
      drainMs: 1000,
      replicaId: 'replica-1',
      leaseMs: 3000,
      trustProxy: 2,
      rateLimit: {
        key: { count: 5, unit: 'minute', burst: 10 },
        address: DEFAULT_RATE_LIMITS.address,
      },
      auditLog: '/var/log/orbit/audit.jsonl',
      allowedHosts: ['orbit-mcp', 'mcp.example.com:8443'],
    });
  });

  it('reads rate limits per scope (others keep their defaults), off for none, and says what a rate looks like', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      key: { count: 50, unit: 'second', burst: 200 },
      address: { count: 200, unit: 'second', burst: 800 },
      paid: { count: 10, unit: 'second', burst: 40 },
    });
    expect(loadConfig({ rateLimit: 'OFF' }, {}).rateLimit).toEqual({});
    // A burst not given is 4 s of the rate, at least 1.
    expect(loadConfig({ rateLimit: 'address=1000/s, paid=3/h' }, {}).rateLimit).toEqual({
      key: DEFAULT_RATE_LIMITS.key,
      address: { count: 1000, unit: 'second', burst: 4000 },
      paid: { count: 3, unit: 'hour', burst: 1 },
    });
    expect(configError({ rateLimit: 'key=50' }, {})).toMatch(
      /--rate-limit: "key=50" is not a rate; write key=<count>\/<s\|m\|h>\[:<burst>\], e\.g\. key=50\/s:200, or key=off/,
    );
    expect(configError({}, { ORBIT_RATE_LIMIT: 'tenant=5/s' })).toMatch(
      /ORBIT_RATE_LIMIT: unknown scope "tenant"; use key=, address= or paid=/,
    );
    expect(configError({ rateLimit: 'key=0/s' }, {})).toMatch(/is not a rate/);
    expect(configError({ rateLimit: 'key=5/s:0' }, {})).toMatch(/the burst must be at least 1/);
  });

  it('sends the audit log to stderr by default, to a file, or nowhere', () => {
    expect(loadConfig({ auditLog: ' Off ' }, {}).auditLog).toBe('off');
    expect(loadConfig({ auditLog: 'STDERR' }, {}).auditLog).toBe('stderr');
    expect(loadConfig({}, { ORBIT_AUDIT_LOG: 'audit.jsonl' }).auditLog).toBe('audit.jsonl');
    expect(configError({ auditLog: '  ' }, {})).toMatch(/--audit-log: name a file, stderr or off/);
  });

  it('takes allowed hosts as names or name:port, and refuses a URL, naming the flag', () => {
    expect(loadConfig({ allowedHosts: '[::1]:8787,10.0.0.7' }, {}).allowedHosts).toEqual([
      '[::1]:8787',
      '10.0.0.7',
    ]);
    expect(configError({ allowedHosts: 'mcp.example.com/mcp' }, {})).toMatch(
      /--allowed-hosts: name hosts as mcp.example.com/,
    );
  });

  it('reads the budget window as a duration (24h by default), and refuses one it cannot read', () => {
    expect(loadConfig({}, {}).budgetWindow).toBe(24 * 3_600_000);
    expect(loadConfig({ budgetWindow: '90m' }, {}).budgetWindow).toBe(90 * 60_000);
    expect(loadConfig({}, { ORBIT_BUDGET_WINDOW: '7d' }).budgetWindow).toBe(7 * 86_400_000);
    expect(configError({ budgetWindow: 'soon' }, {})).toMatch(/--budget-window: must be a duration/);
  });

  it('takes only a redis:// or rediss:// store URL', () => {
    expect(() => loadConfig({ store: 'http://127.0.0.1:6379' }, {})).toThrow(/--store: must be a redis/);
    expect(loadConfig({}, { ORBIT_STORE_URL: 'rediss://cache.example:6380' }).store).toBe(
      'rediss://cache.example:6380',
    );
  });

  it('lets flags win over the environment', () => {
    const config = loadConfig(
      { baseUrl: 'https://flag.example.com', logLevel: 'error', readOnly: false, toolsets: 'teams' },
      {
        ORBIT_BASE_URL: 'https://env.example.com',
        ORBIT_LOG_LEVEL: 'debug',
        ORBIT_READ_ONLY: '1',
        ORBIT_TOOLSETS: 'models',
      },
    );
    expect(config).toMatchObject({
      baseUrl: 'https://flag.example.com',
      logLevel: 'error',
      readOnly: false,
      toolsets: ['teams'],
    });
  });

  it('treats an empty environment variable as unset', () => {
    expect(loadConfig({}, { ORBIT_BASE_URL: '', ORBIT_TIMEOUT_MS: '' })).toMatchObject({
      timeoutMs: 120_000,
    });
    expect(loadConfig({}, { ORBIT_BASE_URL: '' }).baseUrl).toBeUndefined();
  });

  it('reads all, alone or in a list, as every toolset', () => {
    expect(loadConfig({}, { ORBIT_TOOLSETS: 'all' }).toolsets).toBe('all');
    expect(loadConfig({ toolsets: 'models,all' }, {}).toolsets).toBe('all');
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['true', true],
    ['0', false],
    ['no', false],
    ['false', false],
    ['off', false],
    ['OFF', false],
    ['On', true],
  ])('reads ORBIT_READ_ONLY=%s as %s', (value, expected) => {
    expect(loadConfig({}, { ORBIT_READ_ONLY: value }).readOnly).toBe(expected);
  });

  it('rejects an on/off variable that is neither, saying which words work', () => {
    const message = configError({}, { ORBIT_READ_ONLY: 'maybe' });
    expect(message).toContain('ORBIT_READ_ONLY');
    expect(message).toContain('0/false/no/off');
  });

  it.each([
    [{}, { ORBIT_BASE_URL: 'ftp://example.com' }, 'ORBIT_BASE_URL'],
    [{ directBaseUrl: 'ftp://example.com/api' }, {}, '--direct-base-url'],
    [{ baseUrl: 'file:///etc/passwd' }, {}, '--base-url'],
    [{}, { ORBIT_DIRECT_BASE_URL: 'javascript:alert(1)' }, 'ORBIT_DIRECT_BASE_URL'],
  ])('refuses a base URL that is not http(s): %j %j', (flags, env, named) => {
    const message = configError(flags, env);
    expect(message).toContain(`${named}: must be an http:// or https:// URL`);
  });

  it('takes http and https base URLs in any case', () => {
    expect(loadConfig({ baseUrl: 'HTTPS://api.example.com/' }, {}).baseUrl).toBe('HTTPS://api.example.com');
    expect(loadConfig({}, { ORBIT_DIRECT_BASE_URL: 'http://127.0.0.1:8788' }).directBaseUrl).toBe(
      'http://127.0.0.1:8788',
    );
  });

  it('reads the --read-only flag given as a boolean', () => {
    expect(loadConfig({ readOnly: true }, {}).readOnly).toBe(true);
  });

  it('rejects a bad URL, naming the variable', () => {
    const message = configError({}, { ORBIT_BASE_URL: 'api.example.com' });
    expect(message).toContain('ORBIT_BASE_URL');
    expect(message).toContain('absolute URL');
  });

  it('rejects a bad URL, naming the flag', () => {
    const message = configError({ directBaseUrl: 'not a url' }, {});
    expect(message).toContain('--direct-base-url');
  });

  it('rejects an unknown toolset, naming it and listing the valid ones', () => {
    const message = configError({}, { ORBIT_TOOLSETS: 'models,chat' });
    expect(message).toContain('ORBIT_TOOLSETS');
    expect(message).toContain('"chat"');
    expect(message).toContain('embeddings');
  });

  it('rejects an empty toolset list from a flag', () => {
    expect(configError({ toolsets: ' , ' }, {})).toContain('--toolsets');
  });

  it('rejects a timeout that is not a number, naming the variable', () => {
    expect(configError({}, { ORBIT_TIMEOUT_MS: 'fast' })).toContain('ORBIT_TIMEOUT_MS');
  });

  it('rejects a timeout below one second, naming the flag', () => {
    const message = configError({ timeoutMs: '10' }, {});
    expect(message).toContain('--timeout-ms');
    expect(message).toContain('at least 1000 ms');
  });

  it('rejects a fractional or out-of-range retry count', () => {
    expect(configError({}, { ORBIT_MAX_RETRIES: '1.5' })).toContain('ORBIT_MAX_RETRIES');
    expect(configError({ maxRetries: '11' }, {})).toContain('--max-retries');
  });

  it('rejects an unknown log level, naming the variable', () => {
    expect(configError({}, { ORBIT_LOG_LEVEL: 'verbose' })).toContain('ORBIT_LOG_LEVEL');
  });

  it('rejects a read-only value that is not a boolean', () => {
    expect(configError({}, { ORBIT_READ_ONLY: 'maybe' })).toContain('ORBIT_READ_ONLY');
  });

  it('lists every bad setting at once', () => {
    const message = configError({ logLevel: 'loud' }, { ORBIT_BASE_URL: 'nope', ORBIT_TIMEOUT_MS: 'x' });
    expect(message).toContain('--log-level');
    expect(message).toContain('ORBIT_BASE_URL');
    expect(message).toContain('ORBIT_TIMEOUT_MS');
  });
});

describe('toolsets', () => {
  /** A catalog in which only these toolsets have tools. */
  const withTools =
    (...names: Toolset[]) =>
    (toolset: Toolset) =>
      names.includes(toolset);

  it('turns on, by default, the toolsets marked on that have tools', () => {
    expect(resolveToolsets(undefined, withTools('models', 'data', 'keys', 'verify'))).toEqual([
      'models',
      'data',
      'verify',
    ]);
    expect(resolveToolsets(undefined, () => false)).toEqual([]);
  });

  it('turns on exactly what is named, and every toolset for all', () => {
    expect(resolveToolsets(['keys', 'payments'], withTools('models'))).toEqual(['keys', 'payments']);
    expect(resolveToolsets('all', withTools('models'))).toEqual(Object.keys(TOOLSETS));
  });

  it('warns when named toolsets have no tools, and says which toolsets have', () => {
    expect(emptyToolsetsWarning(['models', 'payments'], withTools('models', 'text'))).toBe(
      'Toolset "payments" has no tools in this version, so it adds nothing. Toolsets with tools: models, text.',
    );
    expect(emptyToolsetsWarning(['data', 'payments'], withTools('models'))).toMatch(
      /^Toolsets "data", "payments" have no tools in this version, so they add nothing\./,
    );
  });

  it('does not warn for toolsets with tools, the defaults, or all', () => {
    expect(emptyToolsetsWarning(['models'], withTools('models'))).toBeUndefined();
    expect(emptyToolsetsWarning(undefined, withTools('models'))).toBeUndefined();
    expect(emptyToolsetsWarning('all', withTools('models'))).toBeUndefined();
  });
});
