import { z } from 'zod';
import { type Credential, StaticCredentials } from '../../../credentials.js';
import { isOrbitError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import { type Store, storeKey } from '../../../store/store.js';
import { fingerprint } from '../../../tenant.js';
import type { HttpClient } from '../../../upstream/client.js';

/**
 * What the platform said of a key: known, refused (401), or nothing (unreachable, 5xx); or not
 * asked, because this address presented too many refused keys lately.
 */
export type KeyVerdict = 'valid' | 'refused' | 'unknown' | 'throttled';

export interface KeyCheckOptions {
  /** How long a key the platform accepted is taken as good without asking again. */
  validMs?: number;
  /** How long a refused key is refused for new sessions without asking again (existing sessions are not affected). */
  refusedMs?: number;
  /** Refused keys one address may present per minute before it is told to slow down. */
  refusalsPerMinute?: number;
}

/**
 * Asks the platform once whether a key is known before the remote endpoint does any work for it:
 * made-up keys open no session. The answer is cached by fingerprint (never the key), concurrent
 * checks of one key share a request, and an address that keeps presenting bad keys is slowed down.
 * With a shared store, the answers and the refusals per address are every replica's: a key checked
 * by one is not asked about again by the next, and a bad-key flood counts across replicas.
 */
export class KeyChecker {
  private readonly verdicts = new Map<string, { verdict: KeyVerdict; until: number }>();
  private readonly pending = new Map<string, Promise<KeyVerdict>>();
  private readonly refusals = new Map<string, number[]>();
  private readonly validMs: number;
  private readonly refusedMs: number;
  private readonly refusalsPerMinute: number;

  constructor(
    private readonly client: HttpClient,
    private readonly log: Logger,
    options: KeyCheckOptions = {},
    private readonly shared?: Store,
  ) {
    this.validMs = options.validMs ?? 10 * 60_000;
    this.refusedMs = options.refusedMs ?? 30_000;
    this.refusalsPerMinute = options.refusalsPerMinute ?? 30;
  }

  /** A key known to be good passes at once; others are asked about, unless the address is throttled. */
  async check(credential: Credential, address: string): Promise<KeyVerdict> {
    const id = fingerprint(credential);
    const cached = this.verdicts.get(id);
    if (cached && cached.until > Date.now()) return cached.verdict;
    if ((await this.refusalsFrom(address)) >= this.refusalsPerMinute) return 'throttled';
    let pending = this.pending.get(id);
    if (!pending) {
      pending = this.lookUp(credential).finally(() => this.pending.delete(id));
      this.pending.set(id, pending);
    }
    const verdict = await pending;
    if (verdict === 'refused') await this.refusedFrom(address);
    return verdict;
  }

  /** The platform refused the key on a call: the next new session asks again (on every replica). */
  forget(credential: Credential): void {
    const id = fingerprint(credential);
    this.verdicts.delete(id);
    this.shared?.delete(storeKey('key-verdict', id)).catch(() => {});
  }

  /** Another replica's answer when there is one, else the platform's. */
  private async lookUp(credential: Credential): Promise<KeyVerdict> {
    const id = fingerprint(credential);
    const known = await this.shared?.get(storeKey('key-verdict', id)).catch(() => undefined);
    if (known === 'valid' || known === 'refused') {
      this.remember(id, known);
      return known;
    }
    const verdict = await this.ask(credential);
    if (verdict !== 'unknown')
      await this.shared
        ?.set(storeKey('key-verdict', id), verdict, verdict === 'valid' ? this.validMs : this.refusedMs)
        .catch(() => {});
    return verdict;
  }

  /** Refused keys this address presented in the last minute (every replica's, with a shared store). */
  private async refusalsFrom(address: string): Promise<number> {
    if (!this.shared) return this.recentRefusals(address).length;
    const [now, before] = await Promise.all(
      [0, 1].map((ago) => this.shared!.get(this.refusalWindow(address, ago)).catch(() => undefined)),
    );
    // Two fixed one-minute windows, the older one weighted by how much of it is still in the last minute.
    const elapsed = (Date.now() % 60_000) / 60_000;
    return Number(now ?? 0) + Number(before ?? 0) * (1 - elapsed);
  }

  private async refusedFrom(address: string): Promise<void> {
    if (!this.shared) return void this.recentRefusals(address).push(Date.now());
    await this.shared.add(this.refusalWindow(address, 0), 1, 120_000).catch(() => {});
  }

  private refusalWindow(address: string, minutesAgo: number): string {
    return storeKey('key-refusals', address, String(Math.floor(Date.now() / 60_000) - minutesAgo));
  }

  private async ask(credential: Credential): Promise<KeyVerdict> {
    const api = this.client.api({
      credentials: new StaticCredentials([credential]),
      signal: AbortSignal.timeout(10_000),
      log: this.log,
    });
    let verdict: KeyVerdict;
    try {
      // The subscription usage read-out (spec 1 §4.4) is free and needs a valid key.
      await api.request({ method: 'GET', path: '/api/subscription/v1/usage', schema: z.unknown() });
      verdict = 'valid';
    } catch (error) {
      const status = isOrbitError(error) ? error.status : undefined;
      verdict =
        status === 401
          ? 'refused'
          : status !== undefined && status < 500 && status !== 429
            ? 'valid'
            : 'unknown';
      if (verdict === 'unknown') this.log.debug('could not check a key with the platform', { status });
    }
    if (verdict !== 'unknown') this.remember(fingerprint(credential), verdict);
    return verdict;
  }

  private remember(id: string, verdict: KeyVerdict): void {
    this.verdicts.delete(id);
    this.verdicts.set(id, {
      verdict,
      until: Date.now() + (verdict === 'valid' ? this.validMs : this.refusedMs),
    });
    // Bounded: the oldest verdicts go first.
    if (this.verdicts.size > 50_000) this.verdicts.delete(this.verdicts.keys().next().value!);
  }

  private recentRefusals(address: string): number[] {
    const since = Date.now() - 60_000;
    const kept = (this.refusals.get(address) ?? []).filter((at) => at > since);
    // Re-inserted so the bound below drops the address seen longest ago.
    this.refusals.delete(address);
    this.refusals.set(address, kept);
    if (this.refusals.size > 50_000) this.refusals.delete(this.refusals.keys().next().value!);
    return kept;
  }
}
