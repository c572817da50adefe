import { z } from 'zod';
import { InputError } from '../errors.js';
import type { AnyTool } from './define-tool.js';

/**
 * A call's arguments, checked before anything runs: names the tool does not take are refused
 * (a misspelt option would otherwise be dropped without a word), then the schema's own rules.
 */
export function parseArguments(tool: AnyTool, args: unknown): Record<string, unknown> {
  return parseInput(tool.input, args, {
    owner: tool.name,
    fix: 'Correct the named arguments (see the tool input schema) and call again.',
  });
}

/** The same checks for any object schema (a tool's input, a prompt's arguments). */
export function parseInput(
  schema: z.ZodObject,
  args: unknown,
  about: { owner: string; fix: string },
): Record<string, unknown> {
  const given = args ?? {};
  const { known, names, decoding } = shapeOf(schema);
  // A loose input schema takes extra fields on purpose (passed through to the platform).
  if (schema.def.catchall === undefined && typeof given === 'object' && !Array.isArray(given)) {
    const unknown = Object.keys(given).filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new InputError(
        `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `\`${name}\``).join(', ')}.`,
        {
          fix: known.length
            ? `${about.owner} takes: ${known.join(', ')}.`
            : `${about.owner} takes no arguments; call it with {}.`,
          param: unknown[0],
        },
      );
    }
  }
  // Most calls give no open value: they skip the walk that copies the arguments.
  const decode = decoding.some((name) => (given as Record<string, unknown>)[name] != null);
  const parsed = schema.safeParse(decode ? decodeJsonText(schema, given, []) : given);
  if (!parsed.success) throw inputErrorFrom(parsed.error, about.fix);
  return parsed.data;
}

/** What parseInput reads of a schema, worked out on its first call: schemas live as long as the server. */
interface Shape {
  known: string[];
  names: ReadonlySet<string>;
  /** The arguments whose value may come as JSON text (where decodeJsonText may change something). */
  decoding: string[];
}
const shapes = new WeakMap<z.ZodObject, Shape>();

function shapeOf(schema: z.ZodObject): Shape {
  let shape = shapes.get(schema);
  if (!shape) {
    const known = Object.keys(schema.shape);
    const decoding = known.filter((name) => hasOpenValue(schema.shape[name], new Set()));
    shape = { known, names: new Set(known), decoding };
    shapes.set(schema, shape);
  }
  return shape;
}

/** True when decodeJsonText could decode something under `schema`: it walks the same cases. */
function hasOpenValue(schema: z.core.$ZodType, seen: Set<z.core.$ZodType>): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return hasOpenValue(schema.unwrap(), seen);
  if (schema instanceof z.ZodRecord || schema instanceof z.ZodUnknown || schema instanceof z.ZodAny)
    return true;
  if (schema instanceof z.ZodObject) {
    const fields = Object.values(schema.shape) as z.core.$ZodType[];
    return fields.length === 0 || fields.some((field) => hasOpenValue(field, seen));
  }
  if (schema instanceof z.ZodArray) return hasOpenValue(schema.element, seen);
  return false;
}

/**
 * Open values (records, objects without properties, `z.unknown()`) are listed as strings, since
 * OpenAI strict mode cannot describe them (listing.ts), so they may come as JSON text: a record or
 * open object is parsed from it; an unknown value is parsed when the text is a JSON object or
 * array and kept as text otherwise. Values sent as JSON values are taken as they are.
 */
function decodeJsonText(schema: z.core.$ZodType, value: unknown, path: string[]): unknown {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return value === undefined || value === null ? value : decodeJsonText(schema.unwrap(), value, path);
  if (typeof value === 'string') {
    const open =
      schema instanceof z.ZodRecord || (schema instanceof z.ZodObject && !Object.keys(schema.shape).length);
    if (open) return parseJsonObject(value, path);
    if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return jsonContainer(value) ?? value;
  }
  if (schema instanceof z.ZodObject && isPlainObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => {
        const field = schema.shape[key];
        return [key, field ? decodeJsonText(field, entry, [...path, key]) : entry];
      }),
    );
  if (schema instanceof z.ZodArray && Array.isArray(value))
    return value.map((entry, index) => decodeJsonText(schema.element, entry, [...path, String(index)]));
  return value;
}

/** The object or array that `text` is the JSON of, if it is one. */
function jsonContainer(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function parseJsonObject(text: string, path: string[]): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isPlainObject(parsed)) return parsed;
  const name = path.join('.');
  throw new InputError(`Invalid arguments: ${name}: expected a JSON object (or its text).`, {
    fix: `Pass ${name} as an object, or as text such as {"key": "value"}.`,
    param: path[0],
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Bad arguments: every problem, with the argument path, in one message. */
export function inputErrorFrom(
  error: z.ZodError,
  fix = 'Correct the named arguments (see the tool input schema) and call again.',
): InputError {
  const problems = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : '(arguments)';
    return `${path}: ${issue.message}`;
  });
  return new InputError(`Invalid arguments: ${problems.join('; ')}.`, { fix });
}
