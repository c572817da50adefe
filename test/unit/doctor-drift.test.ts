import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { driftsOf } from '../../src/doctor/drift.js';
import { toleratedDrifts } from '../../src/doctor/tolerated.js';
import { toNumber } from '../../src/replies/number.js';
import { KeyUsage } from '../../tools/account/usage.js';
import { DataCatalog } from '../../tools/data/shared.js';
import { KeyRecord, RawKeyList } from '../../tools/keys/shared.js';
import { Reply as X402Catalog } from '../../tools/payments/catalog.js';

describe('doctor drift', () => {
  it('never prints a key that drifted into a field, even one the cut would split', () => {
    const key = 'sk-orbit-app-0123456789abcdef0123456789abcdef';
    const schema = z.object({ count: z.number() });
    const data = { count: key };
    const drifts = driftsOf(schema.safeParse(data).error!, data);
    expect(drifts).toEqual([{ field: 'count', expected: 'number', got: 'string "[redacted]"' }]);
    expect(JSON.stringify(drifts)).not.toContain('sk-orbit-app-0123');
  });
});

// A reply the tools' schema accepts may still have lost a value to a `.catch`: doctor names it.
describe('doctor, drift the tools tolerate', () => {
  const usage = {
    active: true,
    state: 'active',
    limits: { daily: 100, monthly: 3000 },
    daily: { used: 3, remaining: 97, percentUsed: 0.03, resetAt: 1_790_000_000_000 },
    period: { currentPeriodEnd: '2026-12-01T00:00:00Z' },
  };
  const tolerated = (schema: z.ZodType, data: unknown) => {
    expect(schema.safeParse(data).success).toBe(true);
    return toleratedDrifts(schema, data);
  };

  it('names each value a catch dropped, with what the schema inside it wanted', () => {
    const data = {
      ...usage,
      active: 'yes',
      daily: 5,
      limits: { daily: 'many', monthly: 3000 },
      period: { currentPeriodEnd: 1_790_000_000 },
    };
    expect(tolerated(KeyUsage, data)).toEqual([
      { field: 'active', expected: 'boolean', got: 'string "yes"', tolerated: true },
      { field: 'limits.daily', expected: 'number', got: 'string "many"', tolerated: true },
      { field: 'daily', expected: 'object', got: 'number 5', tolerated: true },
      { field: 'period.currentPeriodEnd', expected: 'string', got: 'number 1790000000', tolerated: true },
    ]);
  });

  it('finds a catch inside a list, a union option and a preprocess', () => {
    expect(tolerated(X402Catalog, { data: [], schemes: 'base-usdc' })).toEqual([
      { field: 'schemes', expected: 'array', got: 'string "base-usdc"', tolerated: true },
    ]);
    const list = z.array(z.looseObject({ n: z.number().optional().catch(undefined) }));
    expect(tolerated(list, [{ n: 1 }, { n: 'two' }])).toEqual([
      { field: '1.n', expected: 'number', got: 'string "two"', tolerated: true },
    ]);
    // A numeric string is read as its number before the catch: only a non-number is lost.
    const cost = z.looseObject({ cost: z.preprocess(toNumber, z.number().optional().catch(undefined)) });
    expect(tolerated(cost, { cost: '0.02' })).toEqual([]);
    expect(tolerated(cost, { cost: 'free' })).toEqual([
      { field: 'cost', expected: 'number', got: 'string "free"', tolerated: true },
    ]);
  });

  it('a value only transformed is read in full: no drift', () => {
    // Numeric strings where the tools accept one, secret-looking fields a transform removes on
    // purpose, and methods upper-cased: the person loses nothing.
    const numeric = {
      ...usage,
      limits: { daily: '100', monthly: '3000' },
      daily: { used: '3', remaining: '97', percentUsed: '0.03', resetAt: '1790000000000' },
    };
    expect(tolerated(KeyUsage, numeric)).toEqual([]);
    expect(tolerated(KeyRecord, { id: 'k1', key: 'sk-x', daily_usd_limit: '5' })).toEqual([]);
    expect(
      tolerated(DataCatalog, {
        data: [{ id: 'web.search', category: 'search', methods: ['post'], endpoint: '/x' }],
        meta: { count: '1' },
      }),
    ).toEqual([]);
  });

  it('a catch given null or nothing loses nothing', () => {
    expect(tolerated(KeyUsage, { ...usage, active: null, daily: null, state: undefined })).toEqual([]);
    expect(tolerated(KeyUsage, {})).toEqual([]);
  });

  it('a union that fails names the field of the option that read furthest, not the whole body', () => {
    // The key list comes as `{data: [...]}` or bare: a `data` that is no list is named as such.
    const data = { data: 5 };
    expect(driftsOf(RawKeyList.safeParse(data).error!, data)).toEqual([
      { field: 'data', expected: 'array', got: 'number 5' },
    ]);
  });
});
