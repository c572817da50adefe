import { defaultConfigDir } from '../auth/store.js';
import type { Files } from '../files/files.js';
import type { Jobs } from '../jobs/store.js';
import type { Logger } from '../log.js';
import { type NextCall, nextCall } from '../next-call.js';
import type { Api } from '../upstream/client.js';
import { QuoteFile, StoredQuote } from './quote-file.js';

export { StoredQuote } from './quote-file.js';

/**
 * Where quoted requests are kept until paid: with the caller's job records (so they are per
 * tenant, shared by every replica when a store is set, and `orbit://jobs/{quote_id}` shows the
 * quote's state without its request), and for a person's own process (stdio) also on disk, so a
 * restart does not lose a quote being paid. Over HTTP quotes stay with the job records only.
 */
export interface QuoteScope {
  jobs: Jobs;
  files: Pick<Files, 'trust'>;
  api: Pick<Api, 'baseUrl'>;
  log: Pick<Logger, 'warning'>;
}

export const KIND = 'x402';
export const nextFor = (quoteId: string): NextCall => nextCall('x402_complete', { quote_id: quoteId });

export class Quotes {
  constructor(
    private readonly scope: QuoteScope,
    private readonly file?: QuoteFile,
  ) {}

  save(quote: StoredQuote): void {
    this.remember(quote, 'quoted');
    this.persist(quote);
  }

  /** A quote of this platform, from the job records (shared by replicas with a store) or (stdio) the config folder. */
  async get(id: string): Promise<StoredQuote | undefined> {
    const job = await this.scope.jobs.get(id);
    const inMemory = job?.kind === KIND ? StoredQuote.safeParse(job.resume) : undefined;
    const quote = inMemory?.success ? inMemory.data : this.file?.get(id);
    if (!quote || quote.platform !== this.scope.api.baseUrl) return undefined;
    if (!inMemory?.success) this.remember(quote, quote.used_at ? 'completed' : 'quoted');
    return quote;
  }

  /** The quote paid for its call: kept (to answer a second try with a new quote), marked used. */
  markUsed(quote: StoredQuote, now = new Date()): StoredQuote {
    const used = { ...quote, used_at: now.toISOString() };
    this.remember(used, 'completed');
    this.persist(used);
    return used;
  }

  private remember(quote: StoredQuote, status: string): void {
    this.scope.jobs.record({
      id: quote.quote_id,
      kind: KIND,
      status,
      next: status === 'completed' ? null : nextFor(quote.quote_id),
      resume: quote,
    });
  }

  private persist(quote: StoredQuote): void {
    try {
      this.file?.put(quote);
    } catch (error) {
      // Memory still holds it; only a restart would lose it.
      this.scope.log.warning(
        `could not keep quote ${quote.quote_id} in ${this.file?.path}: ${(error as Error).message}`,
      );
    }
  }
}

/** The quote store of one caller: on disk too only for a person's own process. */
export function quotesFor(scope: QuoteScope, configDir: () => string = defaultConfigDir): Quotes {
  return new Quotes(scope, scope.files.trust === 'local' ? new QuoteFile(configDir()) : undefined);
}
