import { z } from 'zod';
import { CREDENTIAL_KINDS, type CredentialKind, type CredentialProvider } from '../credentials.js';
import { ApiError, MissingCredentialError } from '../errors.js';
import type { Logger } from '../log.js';
import { readReply } from '../replies/read.js';
import { createRedactor } from '../secrets.js';
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
  const carriesCredential = credentialFinder(options.credentials);
  const queue = [...routes];
  while (queue.length > 0) {
    const route = queue.shift()!;
    const base = { route: route.name, path: route.path };
    // A route learned from a reply that echoed a credential (a model id that is the key) would put
    // it in a URL: such a route is not requested.
    if (carriesCredential(`${route.path}?${new URLSearchParams(route.query)}`)) {
      outcomes.push({
        ...base,
        status: 'skipped',
        reason: 'not requested: its path would carry a credential',
      });
      continue;
    }
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
      if (error instanceof MissingCredentialError && route.credential !== 'optional') {
        outcomes.push({
          ...base,
          status: 'skipped',
          reason: `no ${route.credential.replace('_', ' ')}`,
          credential: route.credential,
        });
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

/** Whether a text holds one of the credentials doctor reads with. */
function credentialFinder(credentials: CredentialProvider): (text: string) => boolean {
  const redactor = createRedactor(CREDENTIAL_KINDS.map((kind) => credentials.get(kind)?.value));
  return (text) => redactor.text(text) !== text;
}

/**
 * What a run found: `ok` (exit 0) when every route was checked and none drifted; `drift` (exit 1)
 * when one drifted; `not_checked` (exit 2) when none drifted but a route could not be checked:
 * unreachable, or skipped for want of a credential the person asked doctor to use (`required`),
 * or not requested at all. A route skipped for want of a credential nobody asked for is not a
 * failure: most people have no management token or session.
 */
export type Verdict = 'ok' | 'drift' | 'not_checked';

export const EXIT_CODES: Record<Verdict, number> = { ok: 0, drift: 1, not_checked: 2 };

/** The routes that could not be checked, given the credentials the person asked doctor to use. */
function notChecked(outcomes: readonly Outcome[], required: ReadonlySet<CredentialKind>): Outcome[] {
  return outcomes.filter(
    (o) =>
      o.status === 'unreachable' ||
      (o.status === 'skipped' && (o.credential === undefined || required.has(o.credential))),
  );
}

export function verdictOf(outcomes: readonly Outcome[], required: ReadonlySet<CredentialKind>): Verdict {
  if (outcomes.some((o) => o.status === 'drift')) return 'drift';
  return notChecked(outcomes, required).length > 0 ? 'not_checked' : 'ok';
}

/** One line a route, then a verdict; what `orbit-mcp doctor` prints without --json. */
export function doctorText(
  outcomes: readonly Outcome[],
  platform: string,
  required: ReadonlySet<CredentialKind> = new Set(),
): string {
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
  lines.push(...verdictLines(outcomes, required));
  return lines.join('\n');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function verdictLines(outcomes: readonly Outcome[], required: ReadonlySet<CredentialKind>): string[] {
  const drifted = outcomes.filter((o) => o.status === 'drift').length;
  const checked = outcomes.filter((o) => o.status === 'ok' || o.status === 'drift').length;
  const missed = notChecked(outcomes, required);
  const unreachable = missed.filter((o) => o.status === 'unreachable').length;
  const lines: string[] = [];
  if (checked === 0 && unreachable > 0) {
    lines.push('Could not reach the platform: every route tried failed, so nothing was checked.');
  } else {
    if (drifted) {
      lines.push(
        `${plural(drifted, 'route')} drifted from what the tools expect (see docs/platform-assumptions.md).`,
      );
    }
    if (missed.length > 0) {
      const reasons = [...new Set(missed.flatMap((o) => (o.status === 'skipped' ? [o.reason] : [])))];
      const why = [
        ...(unreachable ? [`${unreachable} unreachable`] : []),
        ...reasons.map(
          (reason) =>
            `${missed.filter((o) => o.status === 'skipped' && o.reason === reason).length} skipped (${reason})`,
        ),
      ];
      lines.push(
        `Could not check ${plural(missed.length, 'route')} of ${outcomes.length}: ${why.join(', ')}.`,
      );
    }
    if (!drifted)
      lines.push(
        missed.length
          ? 'No drift in the routes that were checked.'
          : `No drift found in ${plural(checked, 'route')}.`,
      );
  }
  const optional = outcomes.flatMap((o) =>
    o.status === 'skipped' && o.credential !== undefined && !required.has(o.credential) ? [o.credential] : [],
  );
  if (optional.length > 0) {
    const kinds = [...new Set(optional)];
    const names = kinds.map((kind) => kind.replace('_', ' '));
    lines.push(
      `Not checked, as no ${names.join(' or ')} is configured: ${plural(optional.length, 'route')} (--require ${kinds.join(',')} makes that fail).`,
    );
  }
  return lines;
}
