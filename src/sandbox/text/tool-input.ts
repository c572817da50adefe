import { optionalBoolean } from '../body.js';
import type { TextModel } from '../catalog/text-models.js';
import { badRequest } from '../errors.js';
import { isRecord } from '../util.js';
import type { ToolChoice, ToolSetup, ToolSpec } from './tools.js';

/**
 * `tools` and `tool_choice` in each format's own syntax (spec 2 §4.1, §4.2), read into the shared
 * ToolSetup. Bad definitions are 400s before anything is charged.
 */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Chat completions: `[{type: function, function: {name, description, parameters}}]`. */
export function readChatTools(body: Record<string, unknown>, model: TextModel): ToolSetup | undefined {
  const tools = toolList(body.tools, (raw, at) => {
    if (raw.type !== 'function' || !isRecord(raw.function))
      throw badRequest(
        `${at} must be {type: "function", function: {...}}.`,
        'invalid_parameter_value',
        'tools',
      );
    return spec(raw.function, 'parameters', `${at}.function`, false);
  });
  const choice = readChoice(body.tool_choice, (raw) =>
    raw.type === 'function' && isRecord(raw.function) && typeof raw.function.name === 'string'
      ? raw.function.name
      : undefined,
  );
  return setup(tools, choice, optionalBoolean(body, 'parallel_tool_calls') !== false, model);
}

/** Messages: `[{name, description, input_schema}]`; `tool_choice` as a string or `{type, name?}`. */
export function readMessagesTools(body: Record<string, unknown>, model: TextModel): ToolSetup | undefined {
  const tools = toolList(body.tools, (raw, at) => {
    if (raw.type !== undefined && raw.type !== 'custom')
      throw badRequest(`${at}.type: only custom tools are supported.`, 'invalid_parameter_value', 'tools');
    return spec(raw, 'input_schema', at, true);
  });
  const choice = readChoice(body.tool_choice, (raw) =>
    raw.type === 'tool' && typeof raw.name === 'string' ? raw.name : undefined,
  );
  const nested = isRecord(body.tool_choice) ? body.tool_choice.disable_parallel_tool_use === true : false;
  const parallel = !(optionalBoolean(body, 'disable_parallel_tool_use') === true || nested);
  return setup(tools, choice, parallel, model);
}

/** Responses: flat function tools `[{type: function, name, description, parameters}]`. */
export function readResponsesTools(body: Record<string, unknown>, model: TextModel): ToolSetup | undefined {
  const tools = toolList(body.tools, (raw, at) => {
    if (raw.type !== 'function')
      throw badRequest(`${at}.type: only function tools are supported.`, 'invalid_parameter_value', 'tools');
    return spec(raw, 'parameters', at, false);
  });
  const choice = readChoice(body.tool_choice, (raw) =>
    raw.type === 'function' && typeof raw.name === 'string' ? raw.name : undefined,
  );
  return setup(tools, choice, optionalBoolean(body, 'parallel_tool_calls') !== false, model);
}

function toolList(
  value: unknown,
  read: (raw: Record<string, unknown>, at: string) => ToolSpec,
): ToolSpec[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value))
    throw badRequest('`tools` must be an array.', 'invalid_parameter_value', 'tools');
  const tools = value.map((raw, i) => {
    if (!isRecord(raw))
      throw badRequest(`tools[${i}] must be an object.`, 'invalid_parameter_value', 'tools');
    return read(raw, `tools[${i}]`);
  });
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name))
      throw badRequest(
        `Tool names must be unique; "${tool.name}" repeats.`,
        'invalid_parameter_value',
        'tools',
      );
    names.add(tool.name);
  }
  return tools;
}

function spec(
  raw: Record<string, unknown>,
  schemaField: string,
  at: string,
  schemaRequired: boolean,
): ToolSpec {
  const name = raw.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw badRequest(
      `${at}.name must be 1 to 64 letters, digits, underscores or dashes.`,
      'invalid_parameter_value',
      'tools',
    );
  }
  const schema = raw[schemaField];
  if (schema === undefined && !schemaRequired) return { name, description: describe(raw), parameters: {} };
  const objectSchema =
    isRecord(schema) &&
    (schema.type === 'object' || (schema.type === undefined && isRecord(schema.properties))) &&
    (schema.properties === undefined || isRecord(schema.properties)) &&
    (schema.required === undefined ||
      (Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')));
  if (!objectSchema) {
    throw badRequest(
      `${at}.${schemaField} must be a JSON Schema object ({type: "object", properties, required}).`,
      'invalid_json_schema',
      'tools',
    );
  }
  return { name, description: describe(raw), parameters: schema };
}

const describe = (raw: Record<string, unknown>): string =>
  typeof raw.description === 'string' ? raw.description : '';

/** The string forms every format shares, or the format's object form (`named` picks the tool name out). */
function readChoice(
  value: unknown,
  named: (raw: Record<string, unknown>) => string | undefined,
): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  const type = typeof value === 'string' ? value : isRecord(value) ? value.type : undefined;
  if (type === 'none' || type === 'auto') return { type };
  if (type === 'required' || type === 'any') return { type: 'required' };
  const name = isRecord(value) ? named(value) : undefined;
  if (name !== undefined) return { type: 'tool', name };
  throw badRequest(
    '`tool_choice` must be none, auto, required (messages: any) or name one tool.',
    'invalid_parameter_value',
    'tool_choice',
  );
}

function setup(
  tools: ToolSpec[] | undefined,
  choice: ToolChoice | undefined,
  parallel: boolean,
  model: TextModel,
): ToolSetup | undefined {
  const forcing = choice?.type === 'required' || choice?.type === 'tool';
  if (!tools || tools.length === 0) {
    if (forcing)
      throw badRequest(
        '`tool_choice` forces a tool call but no `tools` were given.',
        'invalid_parameter_value',
        'tool_choice',
      );
    return undefined;
  }
  const resolved = choice ?? { type: 'auto' };
  if (resolved.type === 'tool' && !tools.some((tool) => tool.name === resolved.name)) {
    throw badRequest(
      `\`tool_choice\` names "${resolved.name}", which is not among the tools offered.`,
      'invalid_parameter_value',
      'tool_choice',
    );
  }
  if (!model.tools && resolved.type !== 'none') {
    if (forcing) {
      throw badRequest(
        `"${model.id}" cannot be forced to call a tool; pick a model whose capabilities include tools.`,
        'tool_choice_unsupported',
        'tool_choice',
      );
    }
    throw badRequest(
      `No provider of "${model.id}" supports tool use; pick a model whose capabilities include tools.`,
      'model_not_available',
      'tools',
    );
  }
  return { tools, choice: resolved, parallel };
}
