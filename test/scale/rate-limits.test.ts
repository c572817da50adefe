/**
 * Issue 34, item 4 on a real redis-server: two replicas (each its own runtime and connection to
 * the store) count a key's requests in the same buckets, so a key spread over both gets its limit
 * once, not once a replica. With the store stopped, each replica goes on counting in its own buckets:
 * a flood is still refused, and requests are answered, not held on the store.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningHttp, serveHttp } from '../../src/mcp/http/endpoint/serve.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { postMcp, rpc } from '../helpers/http.js';
import { registry } from '../helpers/registry.js';
import { type RunningRedis, startRedis } from './lib/redis.js';

let redis: RunningRedis;
let sandbox: Sandbox;
const runtimes: Runtime[] = [];
const replicas: RunningHttp[] = [];

beforeAll(async () => {
  redis = await startRedis();
  sandbox = await startSandbox({ quiet: true });
  for (let i = 0; i < 2; i++) {
    const runtime = await createRuntime(
      loadConfig(
        {
          baseUrl: sandbox.url,
          store: redis.url,
          logLevel: 'silent',
          rateLimit: 'key=1/m:6,address=off',
          auditLog: 'off',
        },
        {},
      ),
    );
    runtimes.push(runtime);
    replicas.push(await serveHttp(runtime, registry, { port: 0, host: '127.0.0.1', stateless: false }));
  }
});
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await Promise.all(runtimes.map((runtime) => runtime.close().catch(() => {})));
  await sandbox?.close();
  await redis?.stop();
});

/** A request that passes the limits and is then answered at once (400: no session named); its status. */
async function probe(url: string, key: string): Promise<number> {
  const res = await postMcp(url, rpc('tools/list'), { authorization: `Bearer ${key}` });
  await res.body?.cancel();
  return res.status;
}

const newKey = (label: string) =>
  sandbox.state.createKey({ label, balance: 100, dailyRequestLimit: 1_000_000 });

it('counts a key once across two replicas on one store, and per replica once the store is down', async () => {
  const [a, b] = replicas as [RunningHttp, RunningHttp];
  const spread = newKey('spread over two replicas');
  const seen: number[] = [];
  for (let i = 0; i < 12; i++) seen.push(await probe((i % 2 ? a : b).url, spread));
  // Six tokens for the key, taken on either replica: the other six refused, on both.
  expect(seen).toEqual([...Array(6).fill(400), ...Array(6).fill(429)]);

  await redis.stop();
  const flooder = newKey('flood while the store is down');
  const down: number[] = [];
  for (let i = 0; i < 8; i++) down.push(await probe(a.url, flooder));
  expect(down).toEqual([...Array(6).fill(400), 429, 429]);
  // The other replica has its own buckets while the store is down.
  expect(await probe(b.url, flooder)).toBe(400);
});
