import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  StreamIncompleteError,
  TimeoutError,
  UpstreamInvalidError,
} from '../../../src/errors.js';
import { mayHaveCharged, networkFailure, statusFailure } from '../../../src/upstream/failure.js';

const socketError = (code: string) => Object.assign(new Error(`socket: ${code}`), { code });
const judge = (code: string, streaming = false) =>
  networkFailure(socketError(code), { timeoutMs: 1000, baseUrl: 'https://platform.test', streaming });

describe('the failure and charge judgement', () => {
  it('says a connection that could not be made reached nothing and cost nothing', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      const failure = judge(code);
      expect(failure).toBeInstanceOf(ConnectionError);
      expect(failure.message).toBe(`Could not reach the platform at https://platform.test (${code}).`);
      expect(mayHaveCharged(failure)).toBe(false);
    }
  });

  it('says a connection lost after the request went out may have been charged', () => {
    const failure = judge('UND_ERR_SOCKET');
    expect(failure).toBeInstanceOf(ConnectionError);
    expect(failure.fix).toBe(
      'For a paid call, check your recent usage before calling again; otherwise call again.',
    );
    expect(mayHaveCharged(failure)).toBe(true);
  });

  it('says a stream cut before its first event is incomplete, not unreachable, and may have been charged', () => {
    const failure = judge('ECONNRESET', true);
    expect(failure).toBeInstanceOf(StreamIncompleteError);
    expect(mayHaveCharged(failure)).toBe(true);
  });

  it('says a timeout may have been charged', () => {
    const failure = judge('UND_ERR_HEADERS_TIMEOUT');
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure.message).toBe('The platform did not answer within 1000 ms.');
    expect(mayHaveCharged(failure)).toBe(true);
  });

  it('says a refusal was not charged, and a reply that could not be read may have been', () => {
    const refusal = statusFailure(400, '{"error":{"message":"bad model"}}', {
      requestId: 'req_1',
      retryAfterMs: undefined,
    });
    expect(refusal).toBeInstanceOf(BadRequestError);
    expect(refusal.requestId).toBe('req_1');
    expect(mayHaveCharged(refusal)).toBe(false);
    expect(mayHaveCharged(new UpstreamInvalidError('unreadable'))).toBe(true);
  });
});
