import { describe, expect, it } from 'vitest';
import { PRICING_KEY, readPricing } from '../../../src/upstream/pricing.js';

describe('readPricing', () => {
  it('reads x_orbit_pricing with its fields', () => {
    const reply = {
      id: 'c1',
      choices: [],
      x_orbit_pricing: {
        amount: 0.0021,
        currency: 'USD',
        cost: 0.0021,
        paymentSource: 'balance',
        inputTokens: 12,
        outputTokens: 40,
        billedToTeam: false,
        billedTeamId: null,
      },
    };
    expect(readPricing(reply)).toEqual(reply.x_orbit_pricing);
  });

  it('finds the extension by pattern, whatever the platform word', () => {
    expect(readPricing({ x_other_pricing: { amount: 1.5, currency: 'USD' } })).toEqual({
      amount: 1.5,
      currency: 'USD',
    });
    expect(readPricing({ X_Acme2_Pricing: { amount: 2 } })).toEqual({ amount: 2 });
  });

  it('keeps unknown keys inside the extension', () => {
    expect(readPricing({ x_orbit_pricing: { amount: 1, surcharge: 0.1 } })).toEqual({
      amount: 1,
      surcharge: 0.1,
    });
  });

  it('keeps the pricing error of a failed charge', () => {
    expect(
      readPricing({ x_orbit_pricing: { amount: 0, error: { status: 402, message: 'no balance' } } })?.error,
    ).toEqual({
      status: 402,
      message: 'no balance',
    });
  });

  it('ignores unrelated keys that only look similar', () => {
    expect(
      readPricing({
        pricing: { amount: 1 },
        x_pricing: { amount: 2 },
        x_orbit_pricing_v2: { amount: 3 },
        orbit_pricing: { amount: 4 },
        'x_or-bit_pricing': { amount: 5 },
        usage: { prompt_tokens: 1 },
      }),
    ).toBeUndefined();
  });

  it('skips a matching key whose value is not a pricing object and keeps looking', () => {
    expect(readPricing({ x_a_pricing: { amount: 'free' }, x_b_pricing: { amount: 0.5 } })).toEqual({
      amount: 0.5,
    });
  });

  it('returns undefined for non-objects', () => {
    expect(readPricing(undefined)).toBeUndefined();
    expect(readPricing(null)).toBeUndefined();
    expect(readPricing('x_orbit_pricing')).toBeUndefined();
  });

  it('exposes the pattern it matches by', () => {
    expect(PRICING_KEY.test('x_orbit_pricing')).toBe(true);
    expect(PRICING_KEY.test('x__pricing')).toBe(false);
  });
});
