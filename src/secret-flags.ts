import { ENV_PREFIX } from './word.js';

/**
 * Flags people reach for to hand over a secret (`--api-key sk-...`, `--token=...`). Secrets come
 * from the environment only, so they never show in process lists; such a flag gets a line that
 * names the variable to set instead of Node's generic "Unknown option". The value is never echoed.
 */

const SECRET_WORDS = [
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'cookie',
  'session',
  'bearer',
  'credential',
  'credentials',
];

/** A flag name that is, or ends in `-`, one of the secret words (`api-key`, `session-cookie`). */
function namesSecret(name: string): boolean {
  return SECRET_WORDS.some((word) => name === word || name.endsWith(`-${word}`));
}

/** `--management-token` and `--session` are `login`'s switches: they take no value (it is read from stdin). */
const LOGIN_SWITCHES = new Set(['management-token', 'session']);

/** The environment variable a secret-looking flag stands for. */
function variableFor(name: string): string {
  if (name.includes('management')) return `${ENV_PREFIX}MANAGEMENT_TOKEN`;
  if (name.includes('session') || name.includes('cookie')) return `${ENV_PREFIX}SESSION`;
  return `${ENV_PREFIX}API_KEY`;
}

/**
 * The problem with the first secret-looking flag in `argv`, or undefined. `known` are the option
 * names the CLI accepts (only a value given to one of login's switches is refused among them).
 */
export function secretFlagProblem(argv: readonly string[], known: ReadonlySet<string>): string | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) continue;
    const flag = arg.slice(arg.startsWith('--') ? 2 : 1);
    const equals = flag.indexOf('=');
    const given = equals === -1 ? flag : flag.slice(0, equals);
    if (!given) continue;
    const name = given.toLowerCase().replaceAll('_', '-');
    if (known.has(given)) {
      if (!LOGIN_SWITCHES.has(given) || equals === -1) continue;
      return `--${given} takes no value: secrets come from the environment (${variableFor(name)}), never from flags, so they do not show in process lists. Set ${variableFor(name)}, or pipe the value to \`orbit-mcp login --${given}\`.`;
    }
    if (!namesSecret(name)) continue;
    return `--${given} is not an option: secrets come from the environment (${variableFor(name)}), never from flags, so they do not show in process lists. Set ${variableFor(name)} instead.`;
  }
  return undefined;
}
