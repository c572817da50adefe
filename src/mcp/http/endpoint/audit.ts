import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from '../../../config.js';
import type { StampedCall } from '../../call-record.js';
import type { RateRefusal } from '../auth/rate-limit.js';

/** Refusals of one second are one line per key or address; past this many, the rest are summed. */
const MAX_REFUSAL_LINES = 1_000;
/** A file the disk does not take fast enough holds at most this much in memory; lines past it are counted. */
const MAX_PENDING_BYTES = 64 * 1_048_576;

/**
 * The audit log of the HTTP endpoint (`--audit-log`): one JSON line per tool call (time, replica,
 * tenant, tool and operation, outcome and error code, cost, reserved and settled amounts, the
 * platform's request ids, duration), and one line a second per key or address that a rate limit
 * refused, with how many. A line holds names this server owns, fingerprints, numbers and the
 * platform's ids only: no key, no argument, no prompt, no content. Lines written in one turn of the
 * event loop go out in one write.
 */
export class AuditLog {
  private pending: string[] = [];
  private flushing = false;
  private dropped = 0;
  private refusals = new Map<string, { line: Record<string, unknown>; refused: number }>();
  private refusalTimer?: NodeJS.Timeout;

  private constructor(
    private readonly replica: string,
    private readonly sink: { write(text: string): void; backlog(): number; end(): Promise<void> },
  ) {}

  /** `off`: none. `stderr`, or a file appended to (created 0600); a file that cannot be opened fails the start. */
  static open(target: string, replica: string): AuditLog | undefined {
    if (target === 'off') return undefined;
    if (target === 'stderr') {
      return new AuditLog(replica, {
        write: (text) => process.stderr.write(text),
        backlog: () => process.stderr.writableLength,
        end: async () => {},
      });
    }
    let fd: number;
    try {
      fd = openSync(resolve(target), 'a', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError(
        `--audit-log: cannot append to ${resolve(target)} (${code}); name a file in a folder that exists and this process may write, stderr, or off.`,
      );
    }
    const stream: WriteStream = createWriteStream('', { fd });
    stream.on('error', () => {});
    return new AuditLog(replica, {
      write: (text) => stream.write(text),
      backlog: () => stream.writableLength,
      end: () => new Promise<void>((done) => stream.end(done)),
    });
  }

  /** One tool call. */
  call(record: StampedCall): void {
    this.push({ time: new Date().toISOString(), event: 'tool_call', ...record });
  }

  /** A request a rate limit refused: counted into its key's or address's line of this second. */
  refused(refusal: RateRefusal): void {
    const byAddress = refusal.scope === 'address';
    const who = byAddress ? (refusal.address ?? '') : refusal.key;
    let id = `${refusal.scope}\n${who}`;
    const others = !this.refusals.has(id) && this.refusals.size >= MAX_REFUSAL_LINES;
    if (others) id = `${refusal.scope}\n*`;
    let entry = this.refusals.get(id);
    if (!entry) {
      const line: Record<string, unknown> = {
        event: 'rate_limited',
        replica: this.replica,
        scope: refusal.scope,
      };
      if (others) line.others = true;
      else if (byAddress) line.address = isIP(who) ? who : 'unreadable';
      else line.tenant = who.slice(0, 12);
      entry = { line, refused: 0 };
      this.refusals.set(id, entry);
    }
    entry.refused++;
    entry.line.retry_after_ms = Math.max(Number(entry.line.retry_after_ms ?? 0), refusal.retryAfterMs);
    this.refusalTimer ??= setInterval(() => this.flushRefusals(), 1_000).unref();
  }

  /** Writes what is pending and closes a file. */
  async close(): Promise<void> {
    this.flushRefusals();
    this.flush();
    await this.sink.end();
  }

  private flushRefusals(): void {
    const time = new Date().toISOString();
    for (const { line, refused } of this.refusals.values()) this.push({ time, ...line, refused });
    this.refusals.clear();
    clearInterval(this.refusalTimer);
    this.refusalTimer = undefined;
  }

  private push(line: Record<string, unknown>): void {
    if (this.sink.backlog() > MAX_PENDING_BYTES) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      this.pending.push(
        JSON.stringify({
          time: line.time,
          event: 'audit_dropped',
          replica: this.replica,
          lines: this.dropped,
        }),
      );
      this.dropped = 0;
    }
    this.pending.push(JSON.stringify(line));
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.sink.write(text);
  }
}
