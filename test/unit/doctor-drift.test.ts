import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { driftsOf } from '../../src/doctor/run.js';

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
