import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AnyTool, ToolAnnotations } from './define-tool.js';

const schemaCache = new WeakMap<AnyTool, Tool>();

/** The wire form of a tool; JSON Schemas are built once per process and kept lean (tokens are paid per turn). */
export function toolListing(tool: AnyTool): Tool {
  let listed = schemaCache.get(tool);
  if (!listed) {
    listed = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: strictReady(leanSchema(tool.input)) as Tool['inputSchema'],
      outputSchema: shapeOnly(leanSchema(tool.output)) as Tool['outputSchema'],
      annotations: wireAnnotations(tool.annotations),
      ...clientHints(tool),
    };
    schemaCache.set(tool, listed);
  }
  return listed;
}

/**
 * `_meta` keys Claude Code reads from a listed tool: `anthropic/alwaysLoad` (never deferred behind
 * its tool search) and `anthropic/maxResultSizeChars` (results up to this stay inline, at most
 * 500,000). Other clients ignore them.
 */
function clientHints(tool: AnyTool): Pick<Tool, '_meta'> {
  const meta = {
    ...(tool.alwaysLoad ? { 'anthropic/alwaysLoad': true } : {}),
    ...(tool.resultChars ? { 'anthropic/maxResultSizeChars': tool.resultChars } : {}),
  };
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}

/**
 * The MCP defaults are readOnly false, destructive true, idempotent false, openWorld true, and the
 * last three mean nothing for a read-only tool; only hints that differ are sent (same meaning, fewer tokens).
 */
function wireAnnotations(a: ToolAnnotations): Partial<ToolAnnotations> {
  if (a.readOnlyHint)
    return a.openWorldHint ? { readOnlyHint: true } : { readOnlyHint: true, openWorldHint: false };
  return {
    ...(a.destructiveHint ? {} : { destructiveHint: false }),
    ...(a.idempotentHint ? { idempotentHint: true } : {}),
    ...(a.openWorldHint ? {} : { openWorldHint: false }),
  };
}

function leanSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return strip(json) as Record<string, unknown>;
}

/**
 * Drops what costs tokens and tells a client nothing: `additionalProperties` (false or `{}`), the
 * safe-integer bounds zod adds to every integer, a record's string `propertyNames`, empty `items`, `minLength: 1`. The tool still validates its arguments itself.
 */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'additionalProperties' && (entry === false || isEmptyObject(entry))) continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(Number(entry)) === Number.MAX_SAFE_INTEGER)
      continue;
    // A record's keys are strings by JSON's own rules, and `items: {}` allows anything anyway.
    if (key === 'propertyNames' && isStringType(entry)) continue;
    if (key === 'items' && isEmptyObject(entry)) continue;
    // A non-empty string is what a model sends anyway; the tool still refuses an empty one.
    if (key === 'minLength' && entry === 1) continue;
    out[key] = strip(entry);
  }
  return out;
}

/**
 * Keeps an input schema convertible to OpenAI strict mode (the Agents SDK's
 * `convertSchemasToStrict`, LangChain's and Mastra's OpenAI paths), which has no open objects and
 * no untyped values: a tool without arguments says `additionalProperties: false` (in place of
 * `properties: {}`); an open value
 * (a record, an object without properties, `z.unknown()`) is listed as a string, which the model
 * fills with JSON text and `parseArguments` decodes. Objects that declare properties stay without
 * `additionalProperties` (converters close them; tokens).
 */
function strictReady(schema: Record<string, unknown>): Record<string, unknown> {
  if (hasProperties(schema)) return openValuesAsText(schema) as Record<string, unknown>;
  // `properties: {}` says nothing more than its absence (MCP makes it optional); closing costs the same.
  const { properties: _none, ...rest } = schema;
  return { ...rest, additionalProperties: false };
}

function openValuesAsText(node: unknown): unknown {
  if (!isObject(node)) return node;
  if (node.type === 'object' && !hasProperties(node)) {
    const said = typeof node.description === 'string' ? `: ${node.description}` : '';
    return { type: 'string', description: `JSON object${said}` };
  }
  if (!TYPED.some((key) => key in node)) return { type: 'string', ...node };
  const out: Record<string, unknown> = { ...node };
  if (isObject(node.properties))
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, value]) => [name, openValuesAsText(value)]),
    );
  if (node.type === 'array') out.items = openValuesAsText(node.items ?? {});
  if (Array.isArray(node.anyOf)) out.anyOf = node.anyOf.map(openValuesAsText);
  return out;
}

/** Keywords that give a schema its type; a schema with none of them takes any value. */
const TYPED = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'not'];

function hasProperties(node: Record<string, unknown>): boolean {
  return isObject(node.properties) && Object.keys(node.properties).length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Output schemas tell the model the shape of structuredContent: the names, objects and arrays.
 * Constraints on values it did not choose (enums, bounds, which keys are always present) and the
 * scalar type of each field (a `url` is a string, a `cost` a number) are left out of the listing:
 * they cost a tenth of the catalogue's tokens, which its descriptions need. The server still
 * validates every result against the full zod schema before sending it.
 */
const CONSTRAINTS = new Set([
  'enum',
  'required',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
]);
function shapeOnly(value: unknown, nested = false): unknown {
  if (Array.isArray(value)) return value.map((item) => shapeOnly(item, true));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const [key, entry] of Object.entries(record)) {
    if (CONSTRAINTS.has(key)) continue;
    // Below the top, `properties` already says it is an object.
    if (nested && key === 'type' && entry === 'object' && record.properties) continue;
    if (nested && key === 'type' && isScalarType(entry)) continue;
    const shaped =
      key === 'properties' ? mapValues(entry, (item) => shapeOnly(item, true)) : shapeOnly(entry, true);
    // What is left of `items: {type: 'string'}` or `anyOf: [{type: 'string'}, {type: 'number'}]` says nothing.
    if ((key === 'items' || key === 'anyOf' || key === 'oneOf') && saysNothing(shaped)) continue;
    out[key] = shaped;
  }
  return out;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
function isScalarType(type: unknown): boolean {
  return Array.isArray(type) ? type.every(isScalarType) : typeof type === 'string' && SCALAR_TYPES.has(type);
}

function saysNothing(value: unknown): boolean {
  return Array.isArray(value) ? value.every(saysNothing) : isEmptyObject(value);
}

function mapValues(value: unknown, fn: (entry: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}

function isStringType(value: unknown): boolean {
  return JSON.stringify(value) === '{"type":"string"}';
}

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
