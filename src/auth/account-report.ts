import type { Config } from '../config.js';
import { CREDENTIAL_KINDS, type Credential, HOW_TO_GET } from '../credentials.js';
import { ENV_PREFIX } from '../word.js';
import type { CredentialStore, StoredPlatform } from './store.js';
import { StoredCredentials } from './stored.js';

/**
 * `orbit-mcp whoami` and `orbit-mcp logout`: what the credential file holds and removing it, per
 * platform, said in words. Never a value: only which kinds, where from and when.
 */

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The credentials given in the environment (flags never carry secrets). */
function explicitCredentials(config: Config): Credential[] {
  const found: Credential[] = [];
  if (config.apiKey) found.push({ kind: 'api_key', value: config.apiKey, source: 'env' });
  if (config.managementToken)
    found.push({ kind: 'management_token', value: config.managementToken, source: 'env' });
  if (config.session) found.push({ kind: 'session', value: config.session, source: 'env' });
  return found;
}

/** `api_key (from sign-in, 2026-01-02)`: a stored entry's kind, how it got there and when. */
function describeStored(entries: StoredPlatform['entries']): string {
  return entries
    .map((entry) => {
      const how = entry.via === 'sign-in' ? 'sign-in' : entry.via === 'cli' ? '`orbit-mcp login`' : 'stored';
      const when = entry.obtained_at?.slice(0, 10);
      return `${entry.kind} (from ${how}${when ? `, ${when}` : ''})`;
    })
    .join(', ');
}

/** `http://a: api_key; http://b: management_token, session`: what a removal took. */
function describeRemoved(platforms: readonly StoredPlatform[]): string {
  return platforms.map((p) => `${p.entries.map((e) => e.kind).join(', ')} for ${p.platform}`).join('; ');
}

export function whoami(config: Config, store: CredentialStore): number {
  const explicit = explicitCredentials(config);
  const stored = store.list();
  const lines: string[] = [];
  if (config.baseUrl) {
    lines.push(`platform: ${config.baseUrl}`);
    const status = new StoredCredentials({
      explicit,
      platform: config.baseUrl,
      store,
      signIn: false,
    }).describe();
    for (const entry of status) {
      lines.push(
        `${entry.kind}: ${entry.present ? `yes (from ${entry.source})` : `no. ${HOW_TO_GET[entry.kind]}`}`,
      );
    }
    const others = stored.filter((p) => p.platform !== config.baseUrl);
    if (others.length) lines.push(`also stored: ${others.map((p) => p.platform).join(', ')}`);
  } else {
    lines.push(`platform: none configured (set ${ENV_PREFIX}BASE_URL, or pass --base-url)`);
    for (const credential of explicit)
      lines.push(
        `${credential.kind}: set in the environment (${ENV_PREFIX}${credential.kind.toUpperCase()})`,
      );
    if (stored.length) {
      lines.push('stored credentials, by platform:');
      for (const p of stored) lines.push(`  ${p.platform}: ${describeStored(p.entries)}`);
      lines.push(`To use one, set ${ENV_PREFIX}BASE_URL to its address (or pass --base-url).`);
    } else {
      lines.push(
        `No credentials are stored. Sign in with \`orbit-mcp login --base-url <platform address>\`, or set ${ENV_PREFIX}API_KEY.`,
      );
    }
  }
  lines.push(`credential file: ${store.path}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * Removes the configured platform's credentials, or every platform's with `all`; without either
 * it removes nothing and names what is stored, since a guess would sign the person out of the
 * wrong platform.
 */
export function logout(config: Config, store: CredentialStore, all: boolean): number {
  if (all) {
    const removed = store.forgetAll();
    say(removed.length ? `Removed the stored ${describeRemoved(removed)}.` : 'Nothing was stored.');
  } else if (config.baseUrl) {
    const kinds = store.forget(config.baseUrl);
    say(
      kinds.length
        ? `Removed the stored ${kinds.join(', ')} for ${config.baseUrl}.`
        : `Nothing was stored for ${config.baseUrl}.`,
    );
    const others = store.list();
    if (others.length)
      say(`Still stored: ${describeRemoved(others)} (\`orbit-mcp logout --all\` removes those too).`);
  } else {
    const stored = store.list();
    if (stored.length === 0) {
      say(`Nothing is stored in ${store.path}.`);
      return 0;
    }
    say(`No platform configured, so nothing was removed. Stored: ${describeRemoved(stored)}.`);
    say(
      `Run \`orbit-mcp logout --base-url ${stored[0]!.platform}\` for one platform, or \`orbit-mcp logout --all\` for every one.`,
    );
    return 2;
  }
  const stillSet = CREDENTIAL_KINDS.filter((kind) =>
    explicitCredentials(config).some((c) => c.kind === kind),
  );
  if (stillSet.length)
    say(
      `Still set in the environment: ${stillSet.map((kind) => `${ENV_PREFIX}${kind.toUpperCase()}`).join(', ')}.`,
    );
  return 0;
}
