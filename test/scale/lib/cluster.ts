/**
 * Three replicas of the built server on one redis-server and one sandbox, behind a round-robin
 * proxy: what the scale tests of one concern start before and stop after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { type RoundRobin, startProxy } from './proxy.js';
import { type RunningRedis, startRedis } from './redis.js';
import { Replicas } from './replicas.js';

export interface Cluster {
  redis: RunningRedis;
  sandbox: Sandbox;
  replicas: Replicas;
  proxy: RoundRobin;
  close(): Promise<void>;
}

export async function startCluster(env: Record<string, string> = {}, count = 3): Promise<Cluster> {
  const redis = await startRedis();
  const sandbox = await startSandbox({ quiet: true });
  const outputDir = await mkdtemp(join(tmpdir(), 'orbit-cluster-'));
  const replicas = await Replicas.start(count, { baseUrl: sandbox.url, store: redis.url, outputDir, env });
  const proxy = await startProxy(replicas.ports);
  return {
    redis,
    sandbox,
    replicas,
    proxy,
    async close() {
      await proxy.close();
      await replicas.stopAll();
      await sandbox.close();
      await redis.stop();
      await rm(outputDir, { recursive: true, force: true });
    },
  };
}
