import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  OrbitError,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  ServerError,
  SpendCapError,
  UpstreamTimeoutError,
} from '../../../src/errors.js';
import { errorFromResponse, parseEnvelope } from '../../../src/upstream/envelopes.js';

describe('parseEnvelope', () => {
  it('reads the common envelope with type, code and param', () => {
    expect(
      parseEnvelope({
        error: {
          message: 'model is required',
          type: 'invalid_request_error',
          code: 'missing_required_parameter',
          param: 'model',
        },
      }),
    ).toEqual({
      message: 'model is required',
      type: 'invalid_request_error',
      code: 'missing_required_parameter',
      param: 'model',
    });
  });

  it('reads the common envelope when code and param are absent or null', () => {
    expect(
      parseEnvelope({ error: { message: 'boom', type: 'server_error', code: null, param: null } }),
    ).toEqual({
      message: 'boom',
      type: 'server_error',
      code: undefined,
      param: undefined,
    });
  });

  it('reads the messages envelope with its type and param', () => {
    expect(
      parseEnvelope({
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens is required', param: 'max_tokens' },
      }),
    ).toEqual({ message: 'max_tokens is required', type: 'invalid_request_error', param: 'max_tokens' });
  });

  it('reads the legacy envelope and keeps requiredBalance of a 402 in details', () => {
    expect(parseEnvelope({ error: 'Insufficient balance', requiredBalance: 1.25, status: 402 })).toEqual({
      message: 'Insufficient balance',
      code: undefined,
      details: { requiredBalance: 1.25 },
    });
  });

  it('reads the legacy envelope without requiredBalance and keeps a string code', () => {
    expect(parseEnvelope({ error: 'Key not found', status: 404, code: 'key_not_found' })).toEqual({
      message: 'Key not found',
      code: 'key_not_found',
      details: { code: 'key_not_found' },
    });
  });

  it('reads the batch list envelope, whose error is the status number', () => {
    expect(parseEnvelope({ error: 400, message: 'limit must be between 1 and 100' })).toEqual({
      message: 'limit must be between 1 and 100',
      code: '400',
    });
  });

  it('reads the data API wrapper envelope', () => {
    expect(
      parseEnvelope({
        error: { message: 'no such endpoint', type: 'invalid_request_error', code: 'unknown_endpoint' },
      }),
    ).toEqual({
      message: 'no such endpoint',
      type: 'invalid_request_error',
      code: 'unknown_endpoint',
      param: undefined,
    });
  });

  it('reads the teams envelope and keeps its details', () => {
    expect(
      parseEnvelope({
        code: 'CONFLICT',
        message: 'Already a member',
        details: { email: 'a@b.c' },
        status: 409,
      }),
    ).toEqual({ message: 'Already a member', code: 'CONFLICT', details: { email: 'a@b.c' } });
  });

  it('reads the teams envelope when details is null', () => {
    expect(parseEnvelope({ code: 'NOT_FOUND', message: 'No such team', details: null, status: 404 })).toEqual(
      {
        message: 'No such team',
        code: 'NOT_FOUND',
        details: undefined,
      },
    );
  });

  it('reads the image API variant, taking `parameter` as param', () => {
    expect(
      parseEnvelope({
        error: {
          message: 'size not supported',
          type: 'invalid_request_error',
          code: 'invalid_size',
          parameter: 'size',
        },
        code: 'invalid_size',
      }),
    ).toEqual({
      message: 'size not supported',
      type: 'invalid_request_error',
      code: 'invalid_size',
      param: 'size',
    });
  });

  it('falls back to the top-level code of the image API variant when the inner one is missing', () => {
    expect(
      parseEnvelope({ error: { message: 'nope', type: 'invalid_request_error' }, code: 'outer_code' })?.code,
    ).toBe('outer_code');
  });

  it('turns a numeric inner code into a string', () => {
    expect(parseEnvelope({ error: { message: 'x', code: 402 } })?.code).toBe('402');
  });

  it('returns undefined for bodies of no known shape', () => {
    expect(parseEnvelope(undefined)).toBeUndefined();
    expect(parseEnvelope('Bad Gateway')).toBeUndefined();
    expect(parseEnvelope({ detail: 'nope' })).toBeUndefined();
    expect(parseEnvelope({ error: { type: 'server_error' } })).toBeUndefined();
  });
});

describe('errorFromResponse', () => {
  const cases: [number, typeof ApiError, string][] = [
    [400, BadRequestError, 'bad_request'],
    [401, AuthenticationError, 'unauthorized'],
    [402, PaymentRequiredError, 'insufficient_balance'],
    [403, PermissionError, 'forbidden'],
    [404, NotFoundError, 'not_found'],
    [408, UpstreamTimeoutError, 'upstream_timeout'],
    [409, ConflictError, 'conflict'],
    [413, PayloadTooLargeError, 'payload_too_large'],
    [422, BadRequestError, 'bad_request'],
    [429, RateLimitError, 'rate_limited'],
    [500, ServerError, 'server_error'],
    [502, ServerError, 'server_error'],
    [503, ServerError, 'server_error'],
    [504, UpstreamTimeoutError, 'upstream_timeout'],
  ];

  it.each(cases)('maps HTTP %i to its class and stable code, with a fix', (status, Kind, code) => {
    const error = errorFromResponse(status, { error: { message: `failed with ${status}` } }, {});
    expect(error).toBeInstanceOf(Kind);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(OrbitError);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`failed with ${status}`);
    expect(error.fix).toMatch(/\w+/);
  });

  const capped = (code: string, message: string, retryAfterMs?: number) =>
    errorFromResponse(429, { error: { message, type: 'rate_limit_error', code } }, { retryAfterMs });

  it.each([
    ['daily_usd_limit_exceeded', 'Daily spend limit of 0 USD reached for this API key.'],
    ['app_spend_cap_exceeded', 'The app spend cap of this key is 0 USD, which blocks paid requests.'],
    ['daily_usd_limit_exceeded', 'Spend limit is $0.00 for this key'],
  ])('a 429 %s whose cap is 0 says the key may not spend, not to wait', (code, message) => {
    const error = capped(code, message, 72_806_000);
    expect(error).toBeInstanceOf(SpendCapError);
    expect(error.code).toBe('spend_capped');
    expect(error.fix).toBe(
      "This key may not spend (its cap is 0); raise it on the platform's key settings. Waiting does not help.",
    );
    expect(error.retryAfterMs).toBeUndefined();
  });

  it.each([
    'Daily spend limit of 0.5 USD reached.',
    'Daily spend limit of 0,5 USD reached.',
    'The spend cap was reached. It is 0 hours until it starts again.',
  ])('a 429 for a spend cap that is reached says when it starts again: %s', (message) => {
    const error = capped('daily_usd_limit_exceeded', message, 3_600_000);
    expect(error).toBeInstanceOf(SpendCapError);
    expect(error.fix).toMatch(/^This key's spend cap on the platform is reached\. It starts again at \d{4}-/);
    expect(error.retryAfterMs).toBe(3_600_000);
  });

  it('a 429 for speed stays a rate limit', () => {
    expect(capped('rate_limit_exceeded', 'Slow down: limit of 0 requests left', 1000)).toBeInstanceOf(
      RateLimitError,
    );
  });

  it('maps an unlisted 4xx to the generic ApiError', () => {
    const error = errorFromResponse(405, { error: { message: 'GET only', code: 'method_not_allowed' } }, {});
    expect(error.constructor).toBe(ApiError);
    expect(error.code).toBe('api_error');
    expect(error.upstreamCode).toBe('method_not_allowed');
  });

  it('keeps the request id, upstream code, type and param of the common envelope', () => {
    const error = errorFromResponse(
      400,
      {
        error: {
          message: 'bad temperature',
          type: 'invalid_request_error',
          code: 'invalid_parameter_value',
          param: 'temperature',
        },
      },
      { requestId: 'req_123' },
    );
    expect(error).toMatchObject({
      requestId: 'req_123',
      upstreamCode: 'invalid_parameter_value',
      upstreamType: 'invalid_request_error',
      param: 'temperature',
    });
  });

  it('keeps Retry-After on a 429 and says how long to wait in the fix', () => {
    const error = errorFromResponse(
      429,
      {
        error: { message: 'Daily limit reached', type: 'rate_limit_error', code: 'daily_rpd_limit_exceeded' },
      },
      { retryAfterMs: 3_600_000, requestId: 'req_rl' },
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(error.requestId).toBe('req_rl');
    expect(error.upstreamCode).toBe('daily_rpd_limit_exceeded');
    expect(error.fix).toContain('3600 s');
  });

  it('gives a 429 without Retry-After a fix that still says to wait', () => {
    expect(errorFromResponse(429, { error: { message: 'slow down' } }, {}).fix).toMatch(/wait/i);
  });

  it('exposes requiredBalance of the legacy 402', () => {
    const error = errorFromResponse(
      402,
      { error: 'Insufficient balance', requiredBalance: 0.42, status: 402 },
      {},
    );
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).requiredBalance).toBe(0.42);
    expect(error.message).toBe('Insufficient balance');
    expect(error.fix).toMatch(/top up/i);
  });

  it('reports no requiredBalance on a 402 that does not carry one', () => {
    const error = errorFromResponse(
      402,
      {
        error: { message: 'Payment required', type: 'insufficient_quota', code: 'insufficient_quota' },
        payment: {},
      },
      {},
    );
    expect((error as PaymentRequiredError).requiredBalance).toBeUndefined();
    expect(error.upstreamCode).toBe('insufficient_quota');
  });

  it('keeps the whole body of an accountless quote (a 402 with `payment`) in details.challenge', () => {
    const body = {
      error: { message: 'Payment required', type: 'payment_required', code: 'insufficient_quota' },
      payment: { paymentId: 'pay_1', amountUsd: '0.006', accepted: [] },
      x402Version: 1,
    };
    const error = errorFromResponse(402, body, {});
    expect(error.details?.challenge).toEqual(body);
    expect(errorFromResponse(402, { error: 'Insufficient balance' }, {}).details?.challenge).toBeUndefined();
    expect(errorFromResponse(400, body, {}).details?.challenge).toBeUndefined();
  });

  it('maps the teams envelope by HTTP status and keeps its code', () => {
    const error = errorFromResponse(
      422,
      {
        code: 'INVALID_INPUT',
        message: 'role must be admin or member',
        details: { field: 'role' },
        status: 422,
      },
      { requestId: 'req_t' },
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.upstreamCode).toBe('INVALID_INPUT');
    expect(error.details).toEqual({ field: 'role' });
    expect(error.requestId).toBe('req_t');
  });

  it('maps the batch envelope', () => {
    const error = errorFromResponse(400, { error: 400, message: 'bad cursor' }, {});
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('bad cursor');
  });

  it('maps the messages envelope and keeps its type', () => {
    const error = errorFromResponse(
      401,
      { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      {},
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.upstreamType).toBe('authentication_error');
    expect(error.message).toBe('invalid x-api-key');
    expect(error.fix).toContain('ORBIT_API_KEY');
  });

  it('keeps the param of the image API variant', () => {
    const error = errorFromResponse(
      400,
      {
        error: {
          message: 'bad size',
          type: 'invalid_request_error',
          code: 'invalid_size',
          parameter: 'size',
        },
        code: 'invalid_size',
      },
      {},
    );
    expect(error.param).toBe('size');
    expect(error.upstreamCode).toBe('invalid_size');
  });

  it('uses the raw text of a non-JSON body as the message', () => {
    const error = errorFromResponse(502, undefined, {
      rawText: 'upstream connect error',
      requestId: 'req_gw',
    });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('upstream connect error');
    expect(error.requestId).toBe('req_gw');
    expect(error.fix).toMatch(/try again/i);
  });

  it('cuts a long non-JSON body to a readable length', () => {
    const error = errorFromResponse(500, undefined, { rawText: 'x'.repeat(5000) });
    expect(error.message.length).toBeLessThanOrEqual(300);
  });

  it('explains an empty body with the status', () => {
    const error = errorFromResponse(503, undefined, { rawText: '' });
    expect(error.message).toBe('The platform answered HTTP 503 without an error message.');
  });

  it('points a model_not_found error to models_list', () => {
    const error = errorFromResponse(
      404,
      { error: { message: 'no such model', code: 'model_not_found' } },
      {},
    );
    expect(error.fix).toContain('models_list');
  });

  it('says a content_policy_violation was not charged', () => {
    const error = errorFromResponse(
      400,
      { error: { message: 'blocked', code: 'content_policy_violation' } },
      {},
    );
    expect(error.fix).toMatch(/not charged/);
  });
});
