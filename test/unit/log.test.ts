import { describe, expect, it } from 'vitest';
import { createLogger, type LogLevel, type LogSink, redact, registerSecret } from '../../src/log.js';
import { createRedactor } from '../../src/secrets.js';

function capture(level: LogLevel) {
  const lines: { level: string; line: string }[] = [];
  const sink: LogSink = (at, line) => lines.push({ level: at, line });
  return { lines, log: createLogger(level, [sink]) };
}

describe('redact', () => {
  it('replaces a registered secret everywhere it appears', () => {
    registerSecret('hunter2-value-xyz');
    expect(redact('a hunter2-value-xyz b hunter2-value-xyz')).toBe('a [redacted] b [redacted]');
  });

  it('ignores values too short to be secrets, so ordinary words survive', () => {
    registerSecret('abc');
    registerSecret(undefined);
    expect(redact('abc def')).toBe('abc def');
  });

  it('keeps the word Bearer and hides the token after it', () => {
    expect(redact('Authorization: Bearer eyJhbGciOi.payload.sig')).toBe('Authorization: Bearer [redacted]');
  });

  it('hides key-shaped values even when not registered', () => {
    expect(redact('key=sk-abcdefgh12345678abcd token=mt-ZYXWVUTS9876543210')).toBe(
      'key=[redacted] token=[redacted]',
    );
  });

  it('leaves text without secrets unchanged', () => {
    expect(redact('GET /api/v1/models 200 in 12 ms')).toBe('GET /api/v1/models 200 in 12 ms');
  });
});

describe('createLogger', () => {
  it('never lets a registered secret reach a sink, in the message or in data', () => {
    const secret = 'p4ss-w0rd-never-shown';
    registerSecret(secret);
    const { lines, log } = capture('debug');
    log.info(`using ${secret}`, { headers: { cookie: `session=${secret}` } });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.line).not.toContain(secret);
    expect(lines[0]?.line).toContain('[redacted]');
  });

  it('hides a secret with quotes and backslashes when it is logged inside data', () => {
    const secret = 'sid="quoted\\value"';
    registerSecret(secret);
    const { lines, log } = capture('debug');
    log.info('cookie', { cookie: secret });
    expect(lines[0]?.line).toBe('cookie {"cookie":"[redacted]"}');
  });

  it('never lets a bearer token reach a sink', () => {
    const { lines, log } = capture('debug');
    log.error('upstream refused', { authorization: 'Bearer abc.def.ghi' });
    expect(lines[0]?.line).not.toContain('abc.def.ghi');
    expect(lines[0]?.line).toContain('Bearer [redacted]');
  });

  it('writes the level, message and JSON data', () => {
    const { lines, log } = capture('debug');
    log.warning('slow reply', { ms: 1200 });
    expect(lines).toEqual([{ level: 'warning', line: 'slow reply {"ms":1200}' }]);
  });

  it('drops messages below the configured level', () => {
    const { lines, log } = capture('warning');
    log.debug('d');
    log.info('i');
    log.warning('w');
    log.error('e');
    expect(lines.map((entry) => entry.level)).toEqual(['warning', 'error']);
  });

  it('writes nothing when silent', () => {
    const { lines, log } = capture('silent');
    log.error('e');
    expect(lines).toEqual([]);
  });

  it('writes to every sink', () => {
    const a: string[] = [];
    const b: string[] = [];
    const log = createLogger('info', [(_l, line) => a.push(line), (_l, line) => b.push(line)]);
    log.info('hello');
    expect(a).toEqual(['hello']);
    expect(b).toEqual(['hello']);
  });
});

describe('createRedactor().value', () => {
  const redactor = createRedactor(['sk-orbit-connection-secret-1234']);

  it('gives back a value that holds no secret as it is, without copying it', () => {
    const value = { a: [{ b: 'plain' }, 2], c: { d: null } };
    expect(redactor.value(value)).toBe(value);
  });

  it('copies only the path to a redacted string and leaves the input as it was', () => {
    const value = { kept: { x: 1 }, list: ['ok', { key: 'sk-orbit-connection-secret-1234' }] };
    const out = redactor.value(value);
    expect(out).toEqual({ kept: { x: 1 }, list: ['ok', { key: '[redacted]' }] });
    expect(out.kept).toBe(value.kept);
    expect(value.list[1]).toEqual({ key: 'sk-orbit-connection-secret-1234' });
  });
});
