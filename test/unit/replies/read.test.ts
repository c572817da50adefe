import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readReply } from '../../../src/replies/read.js';

// Issue 32 items 2 and 4: null is absent, and a number may come as a numeric string, wherever a
// reply schema accepts a missing field or wants a number; one reader does it for every schema.
const Team = z.looseObject({
  uuid: z.string(),
  name: z.string().optional(),
  limit: z.number().int().optional(),
  usage: z.looseObject({ cost: z.number() }).optional(),
  members: z.array(z.looseObject({ id: z.number(), role: z.string().optional() })).optional(),
});

describe('readReply', () => {
  it('reads null as not sent where the schema accepts a missing field', () => {
    const parsed = readReply(Team, { uuid: 't1', name: null, usage: null, members: [{ id: 1, role: null }] });
    expect(parsed.success && parsed.data).toEqual({ uuid: 't1', members: [{ id: 1 }] });
  });

  it('names a field it needs that came as null as missing', () => {
    const parsed = readReply(Team, { uuid: null });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['uuid'],
      message: expect.stringMatching(/undefined/),
    });
  });

  it('keeps null where the schema reads it', () => {
    const parsed = readReply(z.object({ limit: z.number().nullable() }), { limit: null });
    expect(parsed.success && parsed.data).toEqual({ limit: null });
  });

  it('reads a numeric string as its number where the schema wants a number, at any depth', () => {
    const parsed = readReply(Team, {
      uuid: 't1',
      limit: '20',
      usage: { cost: '0.006' },
      members: [{ id: '7' }],
    });
    expect(parsed.success && parsed.data).toEqual({
      uuid: 't1',
      limit: 20,
      usage: { cost: 0.006 },
      members: [{ id: 7 }],
    });
  });

  it('fixes what each option of a union refused', () => {
    const Either = z.union([
      z.object({ kind: z.literal('a'), n: z.number().optional() }),
      z.object({ kind: z.literal('b'), s: z.string() }),
    ]);
    expect(readReply(Either, { kind: 'a', n: null }).data).toEqual({ kind: 'a' });
    expect(readReply(Either, { kind: 'a', n: '4' }).data).toEqual({ kind: 'a', n: 4 });
  });

  it('leaves a string that is not a number, and a null list element, to fail', () => {
    expect(readReply(Team, { uuid: 't1', limit: 'twenty' }).success).toBe(false);
    expect(readReply(z.array(z.number()), [1, null]).success).toBe(false);
  });

  it('never changes the value it was given', () => {
    const reply = { uuid: 't1', name: null, limit: '3' };
    readReply(Team, reply);
    expect(reply).toEqual({ uuid: 't1', name: null, limit: '3' });
  });
});
