import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Quoted requests on disk, for a person's own process (stdio): a quote outlives a restart of the
 * assistant while the person pays it. One JSON file in the config folder, mode 0600 in a 0700
 * folder, replaced atomically (temp file + rename) as the credential file is (src/auth/store.ts).
 * Entries go once their quote has expired (plus a grace to answer a late call with a new quote).
 */
export const QUOTES_FILE = 'x402-quotes.json';
/** A late x402_complete still gets a clear answer and a new quote for this long after expiry. */
export const GRACE_MS = 60 * 60_000;
const MAX_ENTRIES = 100;

export const StoredQuote = z.object({
  quote_id: z.string(),
  /** The platform base URL it was quoted by: a quote is never replayed elsewhere. */
  platform: z.string(),
  /** The tool that asked, and what it needs to render the result the same way. */
  tool: z.string(),
  render: z.record(z.string(), z.unknown()),
  /** The original request: method, path and body bytes (base64) with their sha256. */
  request: z.object({
    method: z.enum(['GET', 'POST']),
    path: z.string(),
    body: z.string(),
    sha256: z.string(),
  }),
  amount_usd: z.string(),
  expires_at: z.string(),
  status_url: z.string().optional(),
  complete_url: z.string().optional(),
  l402: z.object({ token: z.string(), payment_hash: z.string().optional() }).optional(),
  exact: z.boolean(),
  /** When it paid for its call; a quote pays once. */
  used_at: z.string().optional(),
});
export type StoredQuote = z.infer<typeof StoredQuote>;

const FileSchema = z.object({ version: z.literal(1), quotes: z.record(z.string(), z.unknown()) });

export class QuoteFile {
  readonly path: string;

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.path = join(dir, QUOTES_FILE);
  }

  get(id: string): StoredQuote | undefined {
    const parsed = StoredQuote.safeParse(this.read()[id]);
    return parsed.success && this.live(parsed.data) ? parsed.data : undefined;
  }

  put(quote: StoredQuote): void {
    const quotes = this.read();
    quotes[quote.quote_id] = quote;
    this.write(quotes);
  }

  private live(quote: StoredQuote): boolean {
    const expires = Date.parse(quote.expires_at);
    return Number.isFinite(expires) && expires + GRACE_MS > this.now();
  }

  /** The entries still worth keeping; an unreadable file reads as empty (it only holds quotes). */
  private read(): Record<string, unknown> {
    let raw: string;
    try {
      raw = readFileSync(this.path, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = FileSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.quotes : {};
    } catch {
      return {};
    }
  }

  private write(quotes: Record<string, unknown>): void {
    const kept = Object.entries(quotes)
      .flatMap(([id, value]) => {
        const parsed = StoredQuote.safeParse(value);
        return parsed.success && this.live(parsed.data) ? [[id, parsed.data] as const] : [];
      })
      .slice(-MAX_ENTRIES);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify({ version: 1, quotes: Object.fromEntries(kept) }, null, 2)}\n`);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkSync(temp);
      throw error;
    }
    closeSync(fd);
    renameSync(temp, this.path);
  }
}
