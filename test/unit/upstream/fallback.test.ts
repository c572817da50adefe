import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, routeMissing } from '../../../src/errors.js';

describe('routeMissing', () => {
  it('takes a 404 without a code, or with not_found, as a missing route', () => {
    expect(routeMissing(new NotFoundError('gone', { status: 404 }))).toBe(true);
    expect(routeMissing(new NotFoundError('gone', { status: 404, upstreamCode: 'not_found' }))).toBe(true);
  });

  it('does not fall back on an unknown model or on other errors', () => {
    expect(
      routeMissing(new NotFoundError('no model', { status: 404, upstreamCode: 'model_not_found' })),
    ).toBe(false);
    expect(routeMissing(new BadRequestError('bad', { status: 400 }))).toBe(false);
    expect(routeMissing(new Error('x'))).toBe(false);
  });
});
