/**
 * Runs one case of the matrix in its own process (on the Node the client needs): connects the
 * client under test to the built server, makes the journey, writes the result as JSON.
 * Input and output paths come from run.ts through ORBIT_CLIENT_CASE and ORBIT_CLIENT_RESULT.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCapture } from './lib/capture.js';
import { journey } from './lib/journey.js';
import { bounded, type Open, type Session } from './lib/session.js';
import type { WorkerInput, WorkerResult } from './lib/types.js';
import { httpTap, Wire } from './lib/wire.js';

const TAP = fileURLToPath(new URL('./lib/stdio-tap.mjs', import.meta.url));

const input: WorkerInput = JSON.parse(process.env.ORBIT_CLIENT_CASE ?? 'null');
const resultPath = process.env.ORBIT_CLIENT_RESULT;
if (!input || !resultPath) throw new Error('run through test/clients/run.ts');

installCapture();
const { case: which } = input;
const wire = new Wire();
const wireLog = join(input.scratch, `${which.id}.wire.jsonl`);
const tap = which.transport === 'stdio' ? undefined : await httpTap(input.url!, wire);
const target: WorkerInput = tap
  ? { ...input, url: tap.url }
  : {
      ...input,
      server: {
        command: input.server.command,
        args: [TAP, wireLog, '--', input.server.command, ...input.server.args],
      },
    };

const base = { id: which.id, version: '?', node: process.version, warnings: [], delivered: [] };
let result: WorkerResult;
let session: Session | undefined;
try {
  // Each driver is imported only here, so a Node 20 worker never loads a Node 22 framework.
  const driver: { open: Open } = await import(`./drivers/${which.client}.js`);
  session = await bounded('connect', 30_000, driver.open(target));
  result = { ...base, version: session.version, ...(await journey(session, which.client)) };
  result.transportErrors = session.transportErrors?.();
} catch (error) {
  const note = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  const failed = { status: 'fail', note } as const;
  result = { ...base, list: failed, chat: failed, search: failed, image: failed, error: String(error) };
}
await bounded('close', 10_000, session?.close() ?? Promise.resolve()).catch(() => {});
tap?.close();
if (!tap) wire.recordFile(wireLog);
result.wireEra = wire.era();
writeFileSync(resultPath, JSON.stringify(result));
// Some clients keep timers or sockets alive after close; the result is written, so leave now.
process.exit(0);
