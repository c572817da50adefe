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
      inputSchema: leanSchema(tool.input, 'input') as Tool['inputSchema'],
      outputSchema: shapeOnly(leanSchema(tool.output, 'output')) as Tool['outputSchema'],
      annotations: wireAnnotations(tool.annotations),
    };
    schemaCache.set(tool, listed);
  }
  return listed;
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

function leanSchema(schema: z.ZodType, side: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return strip(json, side === 'input') as Record<string, unknown>;
}

/**
 * Drops what costs tokens and tells a client nothing: `additionalProperties` (false or `{}`) on
 * objects that declare properties (clients converting to OpenAI strict mode close those
 * themselves) and the safe-integer bounds zod adds to every integer. The tool still validates
 * its arguments itself.
 *
 * Input schemas are also kept convertible to OpenAI strict mode, which has no open objects and
 * no untyped values: an object without properties says `additionalProperties: false` (tools
 * that take no arguments), a record is listed as a string of JSON (`parseArguments` decodes it),
 * and an untyped value (`z.unknown()`) as a string.
 */
function strip(value: unknown, input: boolean, isValue = false): unknown {
  if (Array.isArray(value)) return value.map((entry) => strip(entry, input));
  if (!value || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  if (input && isRecord(node)) return jsonText(node);
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(node)) {
    if (key === 'additionalProperties' && (entry === false || isEmptyObject(entry)) && hasProperties(node))
      continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(Number(entry)) === Number.MAX_SAFE_INTEGER)
      continue;
    out[key] =
      key === 'properties' && entry && typeof entry === 'object'
        ? Object.fromEntries(
            Object.entries(entry).map(([name, schema]) => [name, strip(schema, input, true)]),
          )
        : strip(entry, input, key === 'items');
  }
  if (input && out.type === 'object' && !hasProperties(out)) out.additionalProperties = false;
  if (input && isValue && !TYPED.some((key) => key in out)) return { type: 'string', ...out };
  return out;
}

/** Keywords that give a schema its type; a schema with none of them takes any value. */
const TYPED = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'not'];

/** An object that takes keys it does not name: a record, or an object left open. */
function isRecord(node: Record<string, unknown>): boolean {
  if (node.type !== 'object' || hasProperties(node)) return false;
  return (
    'propertyNames' in node ||
    (node.additionalProperties !== undefined && node.additionalProperties !== false)
  );
}

function jsonText(node: Record<string, unknown>): Record<string, unknown> {
  const said = typeof node.description === 'string' ? `: ${node.description}` : '';
  return { type: 'string', description: `JSON object${said}` };
}

function hasProperties(node: Record<string, unknown>): boolean {
  return !!node.properties && typeof node.properties === 'object' && Object.keys(node.properties).length > 0;
}

/**
 * Output schemas tell the model the shape of structuredContent; constraints on values it did not
 * choose (enums, bounds, which keys are always present) are left out of the listing. The server
 * still validates every result against the full zod schema before sending it.
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
function shapeOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOnly);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (CONSTRAINTS.has(key)) continue;
    out[key] = key === 'properties' ? mapValues(entry, shapeOnly) : shapeOnly(entry);
  }
  return out;
}

function mapValues(value: unknown, fn: (entry: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
