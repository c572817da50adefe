import { z } from 'zod';
import type { CredentialProvider } from '../credentials.js';
import { ApiError, MissingCredentialError } from '../errors.js';
import type { Logger } from '../log.js';
import { readReply } from '../replies/read.js';
import type { HttpClient } from '../upstream/client.js';
import { driftsOf } from './drift.js';
import { toleratedDrifts } from './tolerated.js';
import type { FreeRoute, Outcome } from './types.js';

/**
 * Reads each free route with the credential it needs and checks the reply against the tools'
 * schema. GET only, so nothing is ever charged; a route a credential is missing for is skipped.
 */
export async function runDoctor(
  routes: readonly FreeRoute[],
  options: { client: HttpClient; credentials: CredentialProvider; log: Logger; signal?: AbortSignal },
): Promise<Outcome[]> {
  const api = options.client.api({
    credentials: options.credentials,
    log: options.log,
    signal: options.signal ?? new AbortController().signal,
  });
  const outcomes: Outcome[] = [];
  const queue = [...routes];
  while (queue.length > 0) {
    const route = queue.shift()!;
    const base = { route: route.name, path: route.path };
    let data: unknown;
    try {
      ({ data } = await api.request({
        method: 'GET',
        path: route.path,
        query: route.query,
        credential: route.credential,
        schema: z.unknown(),
      }));
    } catch (error) {
      if (error instanceof MissingCredentialError) {
        outcomes.push({ ...base, status: 'skipped', reason: `no ${route.credential.replace('_', ' ')}` });
      } else {
        const reason =
          error instanceof ApiError ? `HTTP ${error.status}: ${error.message}` : (error as Error).message;
        outcomes.push({ ...base, status: 'unreachable', reason });
      }
      continue;
    }
    const parsed = readReply(route.schema, data);
    // A reply the schema accepted may still have lost a value to a `.catch`: that is drift too.
    const drift = parsed.success
      ? [...toleratedDrifts(route.schema, data), ...(route.inspect?.(parsed.data) ?? [])]
      : driftsOf(parsed.error, data);
    outcomes.push(drift.length ? { ...base, status: 'drift', drift } : { ...base, status: 'ok' });
    if (parsed.success) queue.push(...(route.follow?.(parsed.data) ?? []));
  }
  return outcomes;
}

/** One line a route, then a verdict; what `orbit-mcp doctor` prints without --json. */
export function doctorText(outcomes: readonly Outcome[], platform: string): string {
  const lines = [`Checking ${platform} through free routes only:`];
  for (const o of outcomes) {
    const head = `${o.status.padEnd(11)} ${o.route} (GET ${o.path})`;
    if (o.status === 'drift') {
      lines.push(head);
      for (const d of o.drift) {
        const lost = d.tolerated ? ' (the tools answer without it)' : '';
        lines.push(`              ${d.field}: expected ${d.expected}, got ${d.got}${lost}`);
      }
    } else if (o.status === 'unreachable' || o.status === 'skipped') lines.push(`${head}: ${o.reason}`);
    else lines.push(head);
  }
  const drifted = outcomes.filter((o) => o.status === 'drift').length;
  lines.push(
    drifted
      ? `${drifted} route${drifted > 1 ? 's' : ''} drifted from what the tools expect (see docs/platform-assumptions.md).`
      : 'No drift found.',
  );
  return lines.join('\n');
}
