import { escapeRegExp, isRecord } from '../util.js';

const MAX_PROPERTIES_READ = 64;

/**
 * Arguments a deterministic model gives a tool, read from the prompt so tests can predict them:
 * 1. any property named in the prompt as `name=value`, `name: value` or `name is value` (quotes allowed);
 * 2. an enum value the prompt mentions, for a property with that enum;
 * 3. for each still-missing required string, in order: quoted text, then a capitalised phrase after a
 *    preposition ("for Paris", "in New York"), then one inside a sentence ("check New York"), then any
 *    phrase after a preposition, then the whole prompt;
 *    required numbers take the prompt's numbers in order (else the default, minimum or 0), booleans
 *    their default or false, arrays and objects the same rules one level down.
 * Optional properties appear only through rules 1 and 2.
 */
export function fillArguments(schema: Record<string, unknown>, prompt: string): Record<string, unknown> {
  // The first 64 properties: each one is a scan of the prompt (planToolCalls bounds the prompt).
  const properties = isRecord(schema.properties)
    ? Object.fromEntries(Object.entries(schema.properties).slice(0, MAX_PROPERTIES_READ))
    : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [],
  );
  const pool = new Candidates(prompt);
  const args: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const value = explicitValue(prompt, name);
    if (value === undefined) continue;
    pool.use(value);
    args[name] = coerce(isRecord(raw) ? raw : {}, value);
  }
  for (const [name, raw] of Object.entries(properties)) {
    const property = isRecord(raw) ? raw : {};
    if (name in args || !Array.isArray(property.enum)) continue;
    const hit = property.enum.find((v) => typeof v === 'string' && mentions(prompt, v));
    if (hit !== undefined) {
      pool.use(String(hit));
      args[name] = hit;
    } else if (required.has(name)) {
      args[name] = property.enum[0];
    }
  }
  for (const [name, raw] of Object.entries(properties)) {
    if (name in args || !required.has(name)) continue;
    args[name] = inferred(isRecord(raw) ? raw : {}, pool, prompt);
  }
  // Keep the schema's property order, as a model writing the JSON would.
  return Object.fromEntries(Object.keys(properties).flatMap((n) => (n in args ? [[n, args[n]]] : [])));
}

function inferred(property: Record<string, unknown>, pool: Candidates, prompt: string): unknown {
  switch (typeOf(property)) {
    case 'number':
    case 'integer': {
      const number = pool.number() ?? numberOr(property.default) ?? numberOr(property.minimum) ?? 0;
      return typeOf(property) === 'integer' ? Math.trunc(number) : number;
    }
    case 'boolean':
      return typeof property.default === 'boolean' ? property.default : false;
    case 'array': {
      const items = isRecord(property.items) ? property.items : {};
      return typeOf(items) === 'string' ? [pool.text()] : [];
    }
    case 'object':
      return fillArguments(property, prompt);
    default:
      return pool.text();
  }
}

function typeOf(property: Record<string, unknown>): string {
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
  if (typeof type === 'string') return type;
  return isRecord(property.properties) ? 'object' : 'string';
}

const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function coerce(property: Record<string, unknown>, value: string): unknown {
  switch (typeOf(property)) {
    case 'number':
      return numberOr(Number(value)) ?? 0;
    case 'integer':
      return Math.trunc(numberOr(Number(value)) ?? 0);
    case 'boolean':
      return /^(true|yes|on|1)$/i.test(value);
    case 'array':
      return value.split(',').map((part) => part.trim());
    case 'object':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return {};
      }
    default:
      return value;
  }
}

function mentions(prompt: string, word: string): boolean {
  return new RegExp(`(^|[^\\w])${escapeRegExp(word)}($|[^\\w])`, 'i').test(prompt);
}

/** `city=Paris`, `city: "New York"`, `city is Paris` (a value ends at , ; . ! ? a newline or " and "). */
function explicitValue(prompt: string, name: string): string | undefined {
  const pattern = new RegExp(
    `(?:^|[^\\w])${escapeRegExp(name)}\\s*(?:=|:|\\bis\\b)\\s*(?:"([^"]*)"|'([^']*)'|(.+?))(?=\\s*(?:[,;!?\\n]|\\.(?:\\s|$)|\\s\\band\\b|$))`,
    'i',
  );
  const match = pattern.exec(prompt);
  if (!match) return undefined;
  return (match[1] ?? match[2] ?? match[3] ?? '').trim();
}

const PREPOSITIONS = 'for|in|at|near|about|from|on|of|to|called|named';

/** The prompt's strings and numbers, handed out in order and each at most once. */
class Candidates {
  private readonly strings: string[];
  private readonly numbers: number[];
  private readonly subject: string;
  private readonly used = new Set<string>();

  constructor(prompt: string) {
    const quoted = [...prompt.matchAll(/"([^"]+)"|(?<!\w)'([^']+)'(?!\w)|“([^”]+)”/g)].map(
      (m) => m[1] ?? m[2] ?? m[3] ?? '',
    );
    const proper = [
      ...prompt.matchAll(
        new RegExp(`\\b(?:${PREPOSITIONS})\\s+([A-Z][\\w'’-]*(?:\\s+[A-Z][\\w'’-]*)*)`, 'g'),
      ),
    ].map((m) => m[1] ?? '');
    const phrases = [
      ...prompt.matchAll(
        new RegExp(
          `\\b(?:${PREPOSITIONS})\\s+(?:(?:the|a|an)\\s+)?([^,;.!?\\n]+?)(?=\\s+(?:${PREPOSITIONS}|and|then|please)\\b|[,;.!?\\n]|$)`,
          'gi',
        ),
      ),
    ].map((m) => m[1] ?? '');
    // Capitalised runs inside a sentence ("check New York City"), not the sentence's first word.
    const names = [...prompt.matchAll(/\b[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*/g)]
      .filter((m) => !/(^|[.!?])\s*$/.test(prompt.slice(0, m.index)) && m[0] !== 'I')
      .map((m) => m[0]);
    this.strings = [...quoted, ...proper, ...names, ...phrases].map((s) => s.trim()).filter(Boolean);
    this.numbers = [...prompt.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)].map((m) => Number(m[0]));
    this.subject = prompt.replace(/\s+/g, ' ').trim().slice(0, 200);
  }

  use(value: string): void {
    this.used.add(value.toLowerCase());
    const index = this.numbers.indexOf(Number(value));
    if (value.trim() !== '' && index >= 0) this.numbers.splice(index, 1);
  }

  text(): string {
    const next = this.strings.find((s) => !this.used.has(s.toLowerCase()));
    if (next === undefined) return this.subject;
    this.use(next);
    return next;
  }

  number(): number | undefined {
    return this.numbers.shift();
  }
}
