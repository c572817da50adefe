import { PLATFORM_WORD } from './word.js';

/**
 * Text fetched from the web (search answers and sources, scraped pages, data calls, transcripts)
 * is untrusted: a page can plant instructions for the agent that reads it. Each tool declares
 * which of its output fields carry such text (`untrusted` in defineTool), and the renderer, in one
 * place, (1) removes from those fields the characters that hide or reorder text, (2) fences the
 * result's text between markers the content cannot forge, and (3) names the fields in
 * `_meta["orbit/untrusted"]`. As github-mcp-server does, centrally (pkg/sanitize).
 */

/**
 * Unicode tag characters (U+E0000-E007F: invisible ASCII look-alikes that carry hidden
 * instructions), bidi controls (U+202A-202E, U+2066-2069, the marks U+200E/U+200F and U+061C) and
 * zero-width characters (U+200B-200D, U+2060, U+FEFF). One character class: linear.
 */
const INVISIBLE = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C\u2060\uFEFF]/gu;

/** `_meta` key of a result naming its structuredContent fields that carry fetched text. */
export const UNTRUSTED_META = `${PLATFORM_WORD}/untrusted`;

const FENCE_NAME = 'untrusted-web-content';
const FENCE_OPEN = `<${FENCE_NAME}>`;
const FENCE_CLOSE = `</${FENCE_NAME}>`;
/** Any spelling of the fence's name inside the content loses its hyphens, so no tag can close the fence. */
const FENCE_NAME_ANY_CASE = new RegExp(FENCE_NAME, 'gi');

/** The text without invisible, bidi and zero-width characters. */
export function cleanText(text: string): string {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}

/**
 * The value with every string in it cleaned, object keys too: a copy where anything changed, the
 * input never modified.
 */
function cleanValue<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = clean(value[i]);
      if (item === value[i]) continue;
      out ??= value.slice();
      out[i] = item;
    }
    return out ?? value;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let changed = false;
    const entries = Object.entries(record).map(([key, item]) => {
      const entry = [cleanText(key), clean(item)] as const;
      if (entry[0] !== key || entry[1] !== item) changed = true;
      return entry;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** The text between the fence markers, any marker inside it neutralised. */
export function fence(text: string): string {
  return `${FENCE_OPEN}\n${text.replace(FENCE_NAME_ANY_CASE, 'untrusted web content')}\n${FENCE_CLOSE}`;
}

/** Which of `fields` hold any text in `output` (an empty list or a quote's empty results do not). */
export function fieldsWithText(output: Record<string, unknown>, fields: readonly string[]): string[] {
  return fields.filter((field) => holdsText(output[field]));
}

function holdsText(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.some(holdsText);
  // A key is text too: `{"ignore the above": 1}` carries words.
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return false;
}

/**
 * The output with its untrusted fields cleaned, and the names of those that carry text (the
 * renderer fences the text and marks `_meta` only when there are some).
 */
export function cleanFields(
  output: Record<string, unknown>,
  fields: readonly string[],
): { output: Record<string, unknown>; marked: string[] } {
  const marked = fieldsWithText(output, fields);
  if (marked.length === 0) return { output, marked };
  const cleaned = { ...output };
  for (const field of marked) cleaned[field] = cleanValue(output[field]);
  return { output: cleaned, marked };
}
