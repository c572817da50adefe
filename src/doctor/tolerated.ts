import type { z } from 'zod';
import { isRecord } from '../lang.js';
import { driftsOf } from './drift.js';
import type { Drift } from './types.js';

/**
 * The drift a reply schema tolerated away: a `.catch` that replaced a value the tools could not
 * read, so the parse succeeded and the person silently lost that field. Walks the schema beside a
 * reply it accepted; at each `.catch` the value is parsed against the schema inside it, and what
 * that parse says is the drift (`expected` is what the inner schema wanted). A value a schema only
 * transforms (a numeric string read as its number, an id upper-cased) is read in full: not drift.
 * A `.catch` given null or nothing loses nothing either (the tools show it as unknown).
 */

type Def = Record<string, unknown> & { type: string };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every value `schema` (which accepted `value`) caught and replaced, as drift at its dotted path. */
export function toleratedDrifts(schema: z.ZodType, value: unknown): Drift[] {
  const found: Drift[] = [];
  walk(schema, value, [], found);
  return found;
}

function walk(schema: z.ZodType, value: unknown, at: PropertyKey[], found: Drift[]): void {
  const def = defOf(schema);
  const inner = def.innerType as z.ZodType;
  switch (def.type) {
    case 'catch': {
      if (value === undefined || value === null) return;
      const parsed = inner.safeParse(value);
      if (parsed.success) walk(inner, value, at, found);
      else found.push(...driftsOf(parsed.error, value, at).map((d) => ({ ...d, tolerated: true as const })));
      return;
    }
    case 'optional':
    case 'default':
    case 'prefault':
      if (value !== undefined) walk(inner, value, at, found);
      return;
    case 'nullable':
      if (value !== null) walk(inner, value, at, found);
      return;
    case 'nonoptional':
    case 'readonly':
      walk(inner, value, at, found);
      return;
    case 'object': {
      if (!isRecord(value)) return;
      const shape = def.shape as Record<string, z.ZodType>;
      for (const [key, field] of Object.entries(shape)) walk(field, value[key], [...at, key], found);
      // The fields beyond the shape, read by the catchall when it is a schema of its own.
      const rest = def.catchall as z.ZodType | undefined;
      if (rest)
        for (const [key, item] of Object.entries(value))
          if (!Object.hasOwn(shape, key)) walk(rest, item, [...at, key], found);
      return;
    }
    case 'record':
      if (!isRecord(value)) return;
      for (const [key, item] of Object.entries(value))
        walk(def.valueType as z.ZodType, item, [...at, key], found);
      return;
    case 'array':
    case 'tuple': {
      if (!Array.isArray(value)) return;
      const items = def.items as z.ZodType[] | undefined;
      for (const [index, item] of value.entries()) {
        const element = def.type === 'array' ? (def.element as z.ZodType) : items?.[index];
        if (element) walk(element, item, [...at, index], found);
      }
      return;
    }
    case 'union': {
      // The option the tools read it with: a union's result is its first option that accepts it.
      const option = (def.options as z.ZodType[]).find((o) => o.safeParse(value).success);
      if (option) walk(option, value, at, found);
      return;
    }
    case 'intersection':
      walk(def.left as z.ZodType, value, at, found);
      walk(def.right as z.ZodType, value, at, found);
      return;
    case 'pipe': {
      // A preprocess or transform: what comes out of `in` is what `out` reads.
      const from = def.in as z.ZodType;
      walk(from, value, at, found);
      const middle = from.safeParse(value);
      if (middle.success) walk(def.out as z.ZodType, middle.data, at, found);
      return;
    }
    case 'lazy':
      walk((def.getter as () => z.ZodType)(), value, at, found);
      return;
    default:
      // A leaf (string, number, enum, unknown, transform...): nothing inside it can be caught.
      return;
  }
}
