import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/config.js';
import { AuditLog } from '../../../../../src/mcp/http/endpoint/audit.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'orbit-audit-unit-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const CALL = {
  tenant: 'abcdef012345',
  replica: 'r1',
  tool: 'web_search',
  outcome: 'ok' as const,
  cost_usd: 0.006,
  reserved_usd: 0.006,
  settled_usd: 0.006,
  request_ids: ['req_1'],
  duration_ms: 12.5,
};

describe('audit log', () => {
  it('is off with off, and names the file it cannot append to', () => {
    expect(AuditLog.open('off', 'r1')).toBeUndefined();
    expect(() => AuditLog.open(join(folder, 'missing', 'audit.jsonl'), 'r1')).toThrow(ConfigError);
    expect(() => AuditLog.open(join(folder, 'missing', 'audit.jsonl'), 'r1')).toThrow(
      /^--audit-log: cannot append to .*missing\/audit\.jsonl \(ENOENT\)/,
    );
  });

  it('appends one JSON line per tool call to a file only its owner reads', async () => {
    const path = join(folder, 'calls.jsonl');
    await writeFile(path, '{"event":"earlier"}\n', { mode: 0o600 });
    const audit = AuditLog.open(path, 'r1')!;
    audit.call(CALL);
    audit.call({ ...CALL, outcome: 'refused', error_code: 'budget_exceeded', request_ids: [] });
    await audit.close();
    const [earlier, first, second] = await lines(path);
    expect(earlier).toEqual({ event: 'earlier' });
    expect(first).toEqual({ time: expect.stringMatching(/^\d{4}-/), event: 'tool_call', ...CALL });
    expect(second).toMatchObject({ outcome: 'refused', error_code: 'budget_exceeded' });
    const fresh = join(folder, 'fresh.jsonl');
    await AuditLog.open(fresh, 'r1')!.close();
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);
  });

  it('counts refused requests into one line per key or address, keeping no address it cannot read', async () => {
    const path = join(folder, 'refused.jsonl');
    const audit = AuditLog.open(path, 'r1')!;
    const key = 'f'.repeat(64);
    for (let i = 0; i < 5; i++)
      audit.refused({ scope: 'key', key, address: '203.0.113.1', retryAfterMs: 100 * i });
    audit.refused({ scope: 'address', key, address: '2001:db8::1', retryAfterMs: 10 });
    audit.refused({ scope: 'address', key, address: 'evil"\nnot an address', retryAfterMs: 10 });
    await audit.close();
    expect(await lines(path)).toEqual([
      {
        time: expect.any(String),
        event: 'rate_limited',
        replica: 'r1',
        scope: 'key',
        tenant: 'ffffffffffff',
        retry_after_ms: 400,
        refused: 5,
      },
      {
        time: expect.any(String),
        event: 'rate_limited',
        replica: 'r1',
        scope: 'address',
        address: '2001:db8::1',
        retry_after_ms: 10,
        refused: 1,
      },
      {
        time: expect.any(String),
        event: 'rate_limited',
        replica: 'r1',
        scope: 'address',
        address: 'unreadable',
        retry_after_ms: 10,
        refused: 1,
      },
    ]);
  });

  it('keeps at most 1,000 refusal lines a second, summing the rest', async () => {
    const path = join(folder, 'many.jsonl');
    const audit = AuditLog.open(path, 'r1')!;
    for (let i = 0; i < 1_200; i++)
      audit.refused({ scope: 'key', key: i.toString(16).padStart(12, '0'), retryAfterMs: 1 });
    await audit.close();
    const written = await lines(path);
    expect(written).toHaveLength(1_001);
    expect(written.at(-1)).toMatchObject({ scope: 'key', others: true, refused: 200 });
  });
});
