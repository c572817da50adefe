import { CREDENTIAL_KINDS, type CredentialKind } from '../credentials.js';
import { createLogger } from '../log.js';
import type { Runtime } from '../runtime.js';
import { createRedactor } from '../secrets.js';
import { doctorText, EXIT_CODES, runDoctor, verdictOf } from './run.js';
import type { FreeRoute, Outcome } from './types.js';

/**
 * `orbit-mcp doctor [--json] [--sandbox] [--require kinds]`: checks the configured platform through
 * free routes and prints one line a route (or JSON). Exit 0 when every route was checked and none
 * drifted, 1 on drift, 2 when a route could not be checked (unreachable, or skipped for want of a
 * credential named in `require`) or no platform is configured.
 *
 * What it prints is meant for CI logs and support, and a platform may echo what it was sent: every
 * name, path, reason and value is redacted with the credentials doctor read and the usual patterns.
 */
export async function doctorCommand(
  runtime: Pick<Runtime, 'target' | 'client' | 'credentials'>,
  routes: readonly FreeRoute[],
  options: { json?: boolean; require?: readonly CredentialKind[]; write?: (text: string) => void } = {},
): Promise<{ code: number; outcomes: Outcome[] }> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  if (runtime.target.kind === 'none') {
    process.stderr.write(
      'orbit-mcp doctor: no platform configured (set ORBIT_BASE_URL, or pass --sandbox).\n',
    );
    return { code: 2, outcomes: [] };
  }
  const redactor = createRedactor(CREDENTIAL_KINDS.map((kind) => runtime.credentials.get(kind)?.value));
  const checked = await runDoctor(routes, {
    client: runtime.client,
    credentials: runtime.credentials,
    log: createLogger('silent'),
  });
  const outcomes = redactor.value(checked);
  const required = new Set(options.require ?? []);
  const verdict = verdictOf(outcomes, required);
  const platform = redactor.text(
    runtime.target.kind === 'sandbox' ? 'the built-in sandbox' : runtime.target.baseUrl,
  );
  const printed = options.json
    ? `${JSON.stringify({ platform, ok: verdict === 'ok', verdict, routes: outcomes }, null, 2)}\n`
    : `${doctorText(outcomes, platform, required)}\n`;
  // Redacted once more as a whole: a secret split across two values is still one in the output.
  write(redactor.text(printed));
  return { code: EXIT_CODES[verdict], outcomes };
}
