/**
 * OpenAI strict mode, checked by the rules OpenAI documents for a function's parameters: the
 * root is an object; every object closes with `additionalProperties: false` and requires every
 * property; every schema has a `type` (or is an `anyOf`/`$ref`); none of the keywords strict mode
 * lists as unsupported; formats from its list; at most 10 levels of nesting and 5,000 properties.
 * Annotations it ignores (`$schema`, `x-…` extensions some frameworks add) are not judged.
 */
import { isRecord } from './session.js';

const UNSUPPORTED = new Set([
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
]);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;

/** Every way `schema` breaks strict mode, each with its JSON path; empty when it complies. */
export function strictProblems(schema: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(schema) || schema.type !== 'object') return ['root: not `type: "object"`'];
  let properties = 0;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (!isRecord(node)) {
      problems.push(`${path}: not a schema object`);
      return;
    }
    for (const key of Object.keys(node))
      if (UNSUPPORTED.has(key)) problems.push(`${path}: \`${key}\` not supported`);
    if (node.type === undefined && node.anyOf === undefined && node.$ref === undefined)
      problems.push(`${path}: no \`type\``);
    if (typeof node.format === 'string' && !FORMATS.has(node.format))
      problems.push(`${path}: format \`${node.format}\` not supported`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object')) {
      if (depth > MAX_DEPTH) problems.push(`${path}: nested deeper than ${MAX_DEPTH}`);
      if (node.additionalProperties !== false)
        problems.push(`${path}: \`additionalProperties\` is not false`);
      const props = isRecord(node.properties) ? node.properties : {};
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const optional = Object.keys(props).filter((key) => !required.has(key));
      if (optional.length) problems.push(`${path}: not required: ${optional.join(', ')}`);
      for (const [key, value] of Object.entries(props)) {
        properties += 1;
        visit(value, `${path}.${key}`, depth + 1);
      }
    }
    if (types.includes('array')) {
      if (node.items === undefined) problems.push(`${path}: array without \`items\``);
      else visit(node.items, `${path}[]`, depth);
    }
    if (Array.isArray(node.anyOf))
      for (const [index, branch] of node.anyOf.entries()) visit(branch, `${path}|${index}`, depth);
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = node[key];
      if (isRecord(defs))
        for (const [name, value] of Object.entries(defs)) visit(value, `#/${key}/${name}`, 1);
    }
  };
  visit(schema, 'root', 1);
  if (properties > MAX_PROPERTIES)
    problems.push(`root: ${properties} properties (at most ${MAX_PROPERTIES})`);
  return problems;
}
