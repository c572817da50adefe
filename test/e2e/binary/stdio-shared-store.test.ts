/**
 * A person's own processes (stdio) on a store shared with other people's (ORBIT_STORE_URL): job
 * records belong to the key, as over HTTP, so one person's processes share theirs and nobody else's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticCredentials } from '../../../src/credentials.js';
import { JobStore } from '../../../src/jobs/store.js';
import { localTenant } from '../../../src/mcp/server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { MemoryStore } from '../../../src/store/memory.js';
import { credentials } from '../../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

const store = new MemoryStore({ shared: true });
const processes: Harness[] = [];
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true, timing: { speechJobMs: 150, pollHintMs: 30 } });
});
afterAll(async () => {
  await Promise.all(processes.map((h) => h.close()));
  await sandbox?.close();
});

/** A stdio process of the person holding `key`, on the shared store. */
async function processOf(key: string): Promise<Harness> {
  const held = new StaticCredentials(credentials({ key }));
  const h = await startHarness({
    sharedSandbox: sandbox,
    credentials: held,
    tenant: localTenant({ store, credentials: held }),
    jobs: new JobStore({ store }),
  });
  processes.push(h);
  return h;
}

describe('stdio processes on a shared store', () => {
  it("keep one key's jobs from another key's processes, and share them among the key's own", async () => {
    const [mine, theirs] = [sandbox.state.createKey(), sandbox.state.createKey()];
    const first = await processOf(mine);
    const other = await processOf(theirs);
    const second = await processOf(mine);
    const started = await first.call('speech_generate', {
      text: 'A long narration. '.repeat(20),
      model: 'tts-studio',
      max_wait_s: 0,
    });
    expect(out(started)).toMatchObject({ status: 'pending' });
    const runId = out(started).run_id;

    const seen = await other.call('job_status', { run_id: runId });
    expect(seen.isError).toBe(true);
    expect(textOf(seen)).toContain(`No speech or transcription job "${runId}"`);

    const own = await second.call('job_status', { run_id: runId });
    expect(own.isError, textOf(own)).toBeFalsy();
    expect(out(own)).toMatchObject({ kind: 'speech', status: 'completed' });
  });
});
