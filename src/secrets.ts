/**
 * Secrets never leave the process: every text and value that goes out (log lines, results,
 * progress, resources, errors) passes through a Redactor first. Process secrets (configured and
 * stored credentials) are registered once; a connection adds its own caller's key, so the set a
 * remote server keeps does not grow with every key it has ever seen.
 */
const processSecrets = new Set<string>();
/**
 * Key-like, bearer and JWT tokens, also when the platform echoes one we never saw ("Invalid API key
 * sk-..."). Long enough not to catch ordinary words and paths (`orbit-output`, `sk-based`).
 */
const SECRET_PATTERNS = [
  /\b(?:sk|ok|mt|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  // Starts only where a run of token characters starts: `\b` let every `-eyJ` in one long run start
  // a scan to the run's end (time growing with the square of its length).
  /(?<![\w.-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /(Bearer\s+)[^\s"']+/gi,
];
const REDACTED = '[redacted]';

/** Registers a process-wide value that must never appear in output. */
export function registerSecret(value: string | undefined): void {
  for (const form of forms(value)) processSecrets.add(form);
}

/**
 * Values the person may see (a team's invite link token) but that must never rest in the shared
 * store: a message that carries one is sent live and never made resumable there. Bounded: the
 * oldest go first.
 */
const storeSecrets = new Set<string>();
const MAX_STORE_SECRETS = 10_000;

export function keepOutOfStore(value: string | undefined): void {
  for (const form of forms(value)) {
    storeSecrets.add(form);
    if (storeSecrets.size > MAX_STORE_SECRETS) storeSecrets.delete(storeSecrets.values().next().value!);
  }
}

/** Process secrets, key-like tokens or a value kept out of the store: such text is not stored. */
export function carriesSecret(text: string): boolean {
  for (const secret of storeSecrets) if (text.includes(secret)) return true;
  return restCheck.text(text) !== text;
}

/** The value as written, and as it appears inside JSON (quotes and backslashes escaped). */
function forms(value: string | undefined): string[] {
  if (!value || value.length < 6) return [];
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

export interface Redactor {
  text(text: string): string;
  /** The value with every string redacted: a copy where anything changed, never the input modified. */
  value<T>(value: T): T;
}

export function createRedactor(connectionSecrets: readonly (string | undefined)[] = []): Redactor {
  const own = connectionSecrets.flatMap(forms);
  const text = (input: string): string => {
    let out = input;
    for (const secret of processSecrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const secret of own) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const pattern of SECRET_PATTERNS) {
      pattern.lastIndex = 0;
      if (!pattern.test(out)) continue;
      out = out.replace(pattern, (_match, prefix) =>
        typeof prefix === 'string' && /^Bearer/i.test(prefix) ? `${prefix}${REDACTED}` : REDACTED,
      );
    }
    return out;
  };
  const value = <T>(input: T): T => walk(input, text) as T;
  return { text, value };
}

/**
 * Copies only what changes: nearly every result holds no secret, and a copy of every object on
 * every call is measurable per call (bench/NOTES.md). The input itself is never modified.
 */
function walk(input: unknown, text: (s: string) => string): unknown {
  if (typeof input === 'string') return text(input);
  if (Array.isArray(input)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < input.length; i++) {
      const item = walk(input[i], text);
      if (item === input[i]) continue;
      out ??= input.slice();
      out[i] = item;
    }
    return out ?? input;
  }
  if (input && typeof input === 'object') {
    let out: Record<string, unknown> | undefined;
    const record = input as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = walk(record[key], text);
      if (item === record[key]) continue;
      out ??= { ...record };
      out[key] = item;
    }
    return out ?? input;
  }
  return input;
}

const processRedactor = createRedactor();
/** Redaction with the process secrets only (stderr, CLI output). */
export const redact = (text: string): string => processRedactor.text(text);

const restCheck = createRedactor();
