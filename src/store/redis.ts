import { Redis } from 'ioredis';
import {
  bucketLifeMs,
  type IndexBounds,
  type LedgerState,
  type LedgerStep,
  type ListBounds,
  type Store,
  type TakeResult,
  type TokenBucket,
} from './store.js';

/** Lua for the operations that read and write in one step (atomic on the server). */
const SCRIPTS = {
  renew: {
    numberOfKeys: 1,
    lua: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0",
  },
  release: {
    numberOfKeys: 1,
    lua: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
  },
  // KEYS: the list and its byte count; ARGV: item, maxItems, maxBytes, ttlMs.
  boundedPush: {
    numberOfKeys: 2,
    lua: `redis.call('rpush', KEYS[1], ARGV[1])
local bytes = redis.call('incrby', KEYS[2], string.len(ARGV[1]))
local n = redis.call('llen', KEYS[1])
while n > 1 and (n > tonumber(ARGV[2]) or bytes > tonumber(ARGV[3])) do
  bytes = redis.call('decrby', KEYS[2], string.len(redis.call('lpop', KEYS[1])))
  n = n - 1
end
redis.call('pexpire', KEYS[1], ARGV[4])
redis.call('pexpire', KEYS[2], ARGV[4])
return n`,
  },
  // KEYS: the index; ARGV: member, score, maxItems, ttlMs. Returns the members that went.
  boundedIndex: {
    numberOfKeys: 1,
    lua: `redis.call('zadd', KEYS[1], ARGV[2], ARGV[1])
local over = redis.call('zcard', KEYS[1]) - tonumber(ARGV[3])
local gone = {}
if over > 0 then
  gone = redis.call('zrange', KEYS[1], 0, over - 1)
  redis.call('zremrangebyrank', KEYS[1], 0, over - 1)
end
redis.call('pexpire', KEYS[1], ARGV[4])
return gone`,
  },
  // KEYS: the number; ARGV: by, ttlMs. The first add sets the expiry.
  addWithExpiry: {
    numberOfKeys: 1,
    lua: `local value = redis.call('incrbyfloat', KEYS[1], ARGV[1])
if redis.call('pttl', KEYS[1]) < 0 then redis.call('pexpire', KEYS[1], ARGV[2]) end
return value`,
  },
  // KEYS: the ledger (a hash: start, spent, r:<id> = "<nano-USD>:<expires ms>"); ARGV: op,
  // windowMs, id, amount, limit (-1: none), ttlMs, keepId, keepAmount, keepTtlMs, ifHeld. The clock is
  // the store's, so replicas whose clocks differ still agree on windows and expiries.
  ledger: {
    numberOfKeys: 1,
    lua: `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local op, window = ARGV[1], tonumber(ARGV[2])
local exists = redis.call('exists', KEYS[1]) == 1
local h = redis.call('hgetall', KEYS[1])
local start, spent, reserved, longest = nil, 0, 0, 0
for i = 1, #h, 2 do
  local f, v = h[i], h[i + 1]
  if f == 'start' then start = tonumber(v)
  elseif f == 'spent' then spent = tonumber(v)
  elseif string.sub(f, 1, 2) == 'r:' then
    local sep = string.find(v, ':', 1, true)
    local amount, expires = tonumber(string.sub(v, 1, sep - 1)), tonumber(string.sub(v, sep + 1))
    if expires <= now then redis.call('hdel', KEYS[1], f)
    else reserved = reserved + amount; longest = math.max(longest, expires - now) end
  end
end
if start == nil or now >= start + window then
  start = now; spent = 0
  -- A read of a ledger that does not exist writes nothing (it would be left without an expiry).
  if op ~= 'read' or exists then redis.call('hset', KEYS[1], 'start', start, 'spent', 0) end
end
local ok = 1
local id = 'r:' .. (ARGV[3] or '')
if op == 'reserve' then
  local amount, limit, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
  if limit >= 0 and spent + reserved + amount > limit then ok = 0
  else
    redis.call('hset', KEYS[1], id, amount .. ':' .. (now + ttl))
    reserved = reserved + amount; longest = math.max(longest, ttl)
  end
elseif op == 'settle' or op == 'release' then
  local held = redis.call('hget', KEYS[1], id)
  if held then reserved = reserved - tonumber(string.sub(held, 1, string.find(held, ':', 1, true) - 1)) end
  redis.call('hdel', KEYS[1], id)
  if op == 'settle' and (held or ARGV[10] ~= '1') then
    spent = spent + tonumber(ARGV[4])
    redis.call('hset', KEYS[1], 'spent', spent)
    if ARGV[7] ~= '' then
      local amount, ttl = tonumber(ARGV[8]), tonumber(ARGV[9])
      redis.call('hset', KEYS[1], 'r:' .. ARGV[7], amount .. ':' .. (now + ttl))
      reserved = reserved + amount; longest = math.max(longest, ttl)
    end
  end
end
if op ~= 'read' or exists then
  redis.call('pexpire', KEYS[1], math.max(1, start + window - now, longest))
end
return {ok, tostring(spent), tostring(reserved), tostring(start)}`,
  },
  // KEYS: the buckets (hashes: t = tokens, at = ms); ARGV: perSecond, burst, lifeMs for each. One
  // token from each, or none when one is short; returns the first short one (1-based, 0: none)
  // and the ms until every one holds a token. The store's clock, as the ledger's.
  take: {
    lua: `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local levels, refused, wait = {}, 0, 0
for i = 1, #KEYS do
  local rate, burst = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1])
  local h = redis.call('hmget', KEYS[i], 't', 'at')
  local level = burst
  if h[1] and h[2] then level = math.min(burst, tonumber(h[1]) + (now - tonumber(h[2])) * rate / 1000) end
  levels[i] = level
  if level < 1 then
    if refused == 0 then refused = i end
    wait = math.max(wait, (1 - level) * 1000 / rate)
  end
end
if refused == 0 then
  for i = 1, #KEYS do
    redis.call('hset', KEYS[i], 't', tostring(levels[i] - 1), 'at', tostring(now))
    redis.call('pexpire', KEYS[i], ARGV[3 * i])
  end
end
return {refused, tostring(math.ceil(wait))}`,
  },
} as const;

type Scripted = Redis & {
  renew(key: string, value: string, ttlMs: number): Promise<number>;
  release(key: string, value: string): Promise<number>;
  boundedPush(
    key: string,
    bytesKey: string,
    item: string,
    maxItems: number,
    maxBytes: number,
    ttlMs: number,
  ): Promise<number>;
  boundedIndex(
    key: string,
    member: string,
    score: number,
    maxItems: number,
    ttlMs: number,
  ): Promise<string[]>;
  addWithExpiry(key: string, by: number, ttlMs: number): Promise<string>;
  ledger(key: string, ...args: (string | number)[]): Promise<[number, string, string, string]>;
  take(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<[number, string]>;
};

/** How long one command may take before it fails (the caller's request then fails, not hangs). */
const COMMAND_TIMEOUT_MS = 5_000;

/**
 * The shared store on Redis or Valkey, through ioredis: one connection for commands, a second one
 * opened on the first subscription (a subscribed connection can do nothing else).
 */
export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly shared = true;
  private subscriber?: Redis;
  private readonly listeners = new Map<string, Set<(message: string) => void>>();

  private constructor(private readonly redis: Scripted) {}

  /** Connects and checks the server answers; a store that cannot be reached fails the start. */
  static async connect(url: string): Promise<RedisStore> {
    const redis = new Redis(url, {
      connectTimeout: 5_000,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 2,
      lazyConnect: true,
      // Reconnect forever with a capped delay: the store may restart under a running replica.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    for (const [name, script] of Object.entries(SCRIPTS)) redis.defineCommand(name, script);
    // Errors surface on the commands that fail; the client's own event would only repeat them,
    // except at the start, where it says why (refused, unknown host) and the command does not.
    let cause: Error | undefined;
    redis.on('error', (error: Error) => {
      cause = error;
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      // Else it goes on reconnecting and holds the process open after the start has failed.
      redis.disconnect();
      throw cause ?? error;
    }
    return new RedisStore(redis as Scripted);
  }

  async get(key: string) {
    return (await this.redis.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number) {
    await this.redis.set(key, value, 'PX', ttlMs);
  }

  async delete(...keys: string[]) {
    if (keys.length) await this.redis.del(...keys);
  }

  async touch(key: string, ttlMs: number) {
    await this.redis.pexpire(key, ttlMs);
  }

  async getBytes(key: string) {
    return (await this.redis.getBuffer(key)) ?? undefined;
  }

  async setBytes(key: string, value: Buffer, ttlMs: number) {
    await this.redis.set(key, value, 'PX', ttlMs);
  }

  async claim(key: string, value: string, ttlMs: number) {
    return (await this.redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async renew(key: string, value: string, ttlMs: number) {
    return (await this.redis.renew(key, value, ttlMs)) === 1;
  }

  async release(key: string, value: string) {
    return (await this.redis.release(key, value)) === 1;
  }

  async merge(
    key: string,
    fields: Record<string, string>,
    ttlMs: number,
    initial: Record<string, string> = {},
  ) {
    const batch = this.redis.multi();
    for (const [name, value] of Object.entries(initial)) batch.hsetnx(key, name, value);
    if (Object.keys(fields).length) batch.hset(key, fields);
    batch.pexpire(key, ttlMs);
    await batch.exec();
  }

  async fields(key: string) {
    const record = await this.redis.hgetall(key);
    return Object.keys(record).length ? record : undefined;
  }

  async fieldsOfMany(keys: readonly string[]) {
    if (keys.length === 0) return [];
    const batch = this.redis.pipeline();
    for (const key of keys) batch.hgetall(key);
    const replies = (await batch.exec()) ?? [];
    return replies.map(([error, record]) => {
      if (error) throw error;
      const fields = record as Record<string, string>;
      return Object.keys(fields).length ? fields : undefined;
    });
  }

  async append(key: string, item: string, bounds: ListBounds) {
    await this.redis.boundedPush(key, `${key}:bytes`, item, bounds.maxItems, bounds.maxBytes, bounds.ttlMs);
  }

  async items(key: string) {
    return this.redis.lrange(key, 0, -1);
  }

  async index(key: string, member: string, score: number, bounds: IndexBounds) {
    return this.redis.boundedIndex(key, member, score, bounds.maxItems, bounds.ttlMs);
  }

  async members(key: string, options: { limit?: number; lowestFirst?: boolean } = {}) {
    const stop = String(options.limit === undefined ? -1 : options.limit - 1);
    return options.lowestFirst ? this.redis.zrange(key, 0, stop) : this.redis.zrange(key, 0, stop, 'REV');
  }

  async countFrom(key: string, minScore: number) {
    const replies = await this.redis.multi().zremrangebyscore(key, '-inf', `(${minScore}`).zcard(key).exec();
    const counted = replies?.[1];
    if (!counted || counted[0]) throw counted?.[0] ?? new Error('the store did not count');
    return Number(counted[1]);
  }

  async unindex(key: string, member: string) {
    await this.redis.zrem(key, member);
  }

  async add(key: string, by: number, ttlMs: number) {
    return Number(await this.redis.addWithExpiry(key, by, ttlMs));
  }

  async ledger(key: string, step: LedgerStep): Promise<LedgerState> {
    const { op, windowMs } = step;
    const id = 'id' in step ? step.id : '';
    const amount = 'amount' in step ? step.amount : 0;
    const limit = step.op === 'reserve' ? (step.limit ?? -1) : -1;
    const ttlMs = step.op === 'reserve' ? step.ttlMs : 0;
    const keep = step.op === 'settle' ? step.keep : undefined;
    const [ok, spent, reserved, start] = await this.redis.ledger(
      key,
      op,
      windowMs,
      id,
      amount,
      limit,
      ttlMs,
      keep?.id ?? '',
      keep?.amount ?? 0,
      keep?.ttlMs ?? 0,
      step.op === 'settle' && step.ifHeld ? '1' : '0',
    );
    return { ok: ok === 1, spent: Number(spent), reserved: Number(reserved), windowStart: Number(start) };
  }

  async take(buckets: readonly TokenBucket[]): Promise<TakeResult> {
    const [refused, waitMs] = await this.redis.take(
      buckets.length,
      ...buckets.map((bucket) => bucket.key),
      ...buckets.flatMap((bucket) => [bucket.perSecond, bucket.burst, bucketLifeMs(bucket)]),
    );
    if (refused === 0) return { ok: true };
    return { ok: false, refusedBy: refused - 1, retryAfterMs: Number(waitMs) };
  }

  async publish(channel: string, message: string) {
    await this.redis.publish(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    const subscriber = await this.subscriberConnection();
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(channel, listeners);
      await subscriber.subscribe(channel);
    }
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.listeners.get(channel) !== listeners) return;
      this.listeners.delete(channel);
      await subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  /** Answers within a second: a readiness probe must not hang on a store that is down. */
  async ping() {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), 1_000);
    });
    try {
      return await Promise.race([this.redis.ping().then((reply) => reply === 'PONG'), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async close() {
    this.listeners.clear();
    await Promise.all([this.subscriber?.quit().catch(() => {}), this.redis.quit().catch(() => {})]);
  }

  private async subscriberConnection(): Promise<Redis> {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.redis.duplicate({ lazyConnect: true, commandTimeout: undefined });
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(message);
    });
    this.subscriber = subscriber;
    await subscriber.connect();
    return subscriber;
  }
}
