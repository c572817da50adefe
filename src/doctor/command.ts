import { createLogger } from '../log.js';
import type { Runtime } from '../runtime.js';
import { doctorText, runDoctor } from './run.js';
import type { FreeRoute, Outcome } from './types.js';

/**
 * `orbit-mcp doctor [--json] [--sandbox]`: checks the configured platform through free routes and
 * prints one line a route (or JSON). Exit 0 when nothing drifted, 1 on drift, 2 with no platform.
 */
export async function doctorCommand(
  runtime: Pick<Runtime, 'target' | 'client' | 'credentials'>,
  routes: readonly FreeRoute[],
  options: { json?: boolean; write?: (text: string) => void } = {},
): Promise<{ code: number; outcomes: Outcome[] }> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  if (runtime.target.kind === 'none') {
    process.stderr.write(
      'orbit-mcp doctor: no platform configured (set ORBIT_BASE_URL, or pass --sandbox).\n',
    );
    return { code: 2, outcomes: [] };
  }
  const outcomes = await runDoctor(routes, {
    client: runtime.client,
    credentials: runtime.credentials,
    log: createLogger('silent'),
  });
  const drifted = outcomes.some((o) => o.status === 'drift');
  const platform = runtime.target.kind === 'sandbox' ? 'the built-in sandbox' : runtime.target.baseUrl;
  write(
    options.json
      ? `${JSON.stringify({ platform, ok: !drifted, routes: outcomes }, null, 2)}\n`
      : `${doctorText(outcomes, platform)}\n`,
  );
  return { code: drifted ? 1 : 0, outcomes };
}
