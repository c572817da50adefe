import {
  SANDBOX_DEMO_BALANCE_USD,
  SANDBOX_DEMO_DAILY_REQUESTS,
  SANDBOX_DEMO_KEY,
  SANDBOX_KEY_PREFIX,
} from './constants.js';

/** Money is kept in integer nano-dollars so a long run of tiny charges never drifts. */
const NANOS = 1e9;
export const toNanos = (usd: number): number => Math.round(usd * NANOS);
export const fromNanos = (nanos: number): number => nanos / NANOS;
const DAY_MS = 86_400_000;

export interface KeyOptions {
  /** Use this exact key string instead of a generated one. */
  key?: string;
  /** Share the balance of an existing account (keys of one user spend from one balance). */
  account?: string;
  /** USD balance of a new account; default 10. */
  balance?: number;
  dailyRequestLimit?: number;
  dailyUsdLimit?: number;
  label?: string;
  /** Models this key used recently, most recent first (drives `sort=favorites`). */
  favorites?: string[];
  /** An active subscriber sees only subscription models in `/api/v1/models`... */
  subscriber?: boolean;
  /** ...unless this paid-models preference is on. */
  showPaidModels?: boolean;
  /** Set on keys issued through OAuth. */
  grant?: KeyGrant;
  /** Epoch ms after which the key stops working (keys made through the management API). */
  expiresAt?: number;
}

/** What an OAuth-issued key carries (spec 1 §2.2, §4.2): its app, scope, origins, expiry and app spend cap. */
export interface KeyGrant {
  clientName: string;
  scope: string;
  /** Origins a browser may use the key from. */
  origins: string[];
  /** Epoch ms. */
  expiresAt?: number;
  /** USD per period; 0 blocks paid spend. `window` and `spentNanos` track the current period. */
  spendCap?: { usd: number; period: 'daily' | 'weekly' | 'monthly'; window: number; spentNanos: number };
}

export interface Account {
  id: string;
  balanceNanos: number;
}

export interface KeyRecord {
  /** Public id (`key_NNNNNN`), the handle the management API uses; never the secret. */
  id: string;
  key: string;
  label: string;
  account: Account;
  dailyRequestLimit: number | undefined;
  dailyUsdLimit: number | undefined;
  /** UTC day number the counters below belong to. */
  day: number;
  requestsToday: number;
  spentTodayNanos: number;
  spentTotalNanos: number;
  recentModels: string[];
  subscriber: boolean;
  showPaidModels: boolean;
  grant: KeyGrant | undefined;
  /** Epoch ms. */
  createdAt: number;
  expiresAt: number | undefined;
  /** A disabled key is refused like an unknown one, but keeps its record. */
  disabled: boolean;
}

/** Accounts, keys and per-area stores. Deterministic: ids come from counters, time from the given clock. */
export class SandboxState {
  private readonly keys = new Map<string, KeyRecord>();
  private readonly accounts = new Map<string, Account>();
  private readonly collections = new Map<string, Map<string, unknown>>();
  private keyCounter = 0;

  constructor(readonly now: () => number) {
    this.createKey({
      key: SANDBOX_DEMO_KEY,
      account: 'acct_demo',
      balance: SANDBOX_DEMO_BALANCE_USD,
      dailyRequestLimit: SANDBOX_DEMO_DAILY_REQUESTS,
      label: 'demo',
      favorites: ['sandbox/reasoner', 'anthropic/claude-sandbox'],
    });
  }

  /** Creates an API key and returns its secret. */
  createKey(options: KeyOptions = {}): string {
    this.keyCounter += 1;
    const key = options.key ?? `${SANDBOX_KEY_PREFIX}${String(this.keyCounter).padStart(6, '0')}`;
    if (this.keys.has(key)) throw new Error(`sandbox key already exists: ${key}`);
    const accountId = options.account ?? `acct_${String(this.keyCounter).padStart(6, '0')}`;
    let account = this.accounts.get(accountId);
    if (!account) {
      account = { id: accountId, balanceNanos: toNanos(options.balance ?? 10) };
      this.accounts.set(accountId, account);
    } else if (options.balance !== undefined) {
      account.balanceNanos = toNanos(options.balance);
    }
    this.keys.set(key, {
      id: `key_${String(this.keyCounter).padStart(6, '0')}`,
      key,
      label: options.label ?? `key ${this.keyCounter}`,
      account,
      dailyRequestLimit: options.dailyRequestLimit,
      dailyUsdLimit: options.dailyUsdLimit,
      day: this.today(),
      requestsToday: 0,
      spentTodayNanos: 0,
      spentTotalNanos: 0,
      recentModels: [...(options.favorites ?? [])],
      subscriber: options.subscriber ?? false,
      showPaidModels: options.showPaidModels ?? false,
      grant: options.grant,
      createdAt: this.now(),
      expiresAt: options.expiresAt,
      disabled: false,
    });
    return key;
  }

  /** The key's record with its daily counters rolled over to today, or undefined when unknown. */
  getKey(key: string): KeyRecord | undefined {
    const record = this.keys.get(key);
    if (!record) return undefined;
    const today = this.today();
    if (record.day !== today) {
      record.day = today;
      record.requestsToday = 0;
      record.spentTodayNanos = 0;
    }
    return record;
  }

  /** The keys that spend from one account, oldest first. */
  keysOf(accountId: string): KeyRecord[] {
    return [...this.keys.values()].filter((record) => record.account.id === accountId);
  }

  deleteKey(key: string): boolean {
    return this.keys.delete(key);
  }

  account(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  setBalance(key: string, usd: number): void {
    this.mustGet(key).account.balanceNanos = toNanos(usd);
  }

  balance(key: string): number {
    return fromNanos(this.mustGet(key).account.balanceNanos);
  }

  /** Total USD this key has spent. */
  spent(key: string): number {
    return fromNanos(this.mustGet(key).spentTotalNanos);
  }

  setLimits(key: string, limits: { dailyRequestLimit?: number; dailyUsdLimit?: number }): void {
    const record = this.mustGet(key);
    if ('dailyRequestLimit' in limits) record.dailyRequestLimit = limits.dailyRequestLimit;
    if ('dailyUsdLimit' in limits) record.dailyUsdLimit = limits.dailyUsdLimit;
  }

  /** Remembers the model as this key's most recent one (for `sort=favorites`). */
  noteModelUse(record: KeyRecord, modelId: string): void {
    record.recentModels = [modelId, ...record.recentModels.filter((id) => id !== modelId)];
  }

  /**
   * A named map for one area's objects (responses, quotes, jobs...), so later areas keep their
   * state here without widening this class.
   */
  collection<T>(name: string): Map<string, T> {
    let map = this.collections.get(name);
    if (!map) {
      map = new Map<string, unknown>();
      this.collections.set(name, map);
    }
    return map as Map<string, T>;
  }

  /** Milliseconds until the next 00:00 UTC. */
  msUntilMidnightUtc(): number {
    const now = this.now();
    return (Math.floor(now / DAY_MS) + 1) * DAY_MS - now;
  }

  private today(): number {
    return Math.floor(this.now() / DAY_MS);
  }

  private mustGet(key: string): KeyRecord {
    const record = this.getKey(key);
    if (!record) throw new Error('unknown sandbox key');
    return record;
  }
}
