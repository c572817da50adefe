import type { z } from 'zod';
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
  // A loose input schema takes extra fields on purpose (passed through to the platform).
  if (schema.def.catchall === undefined && typeof given === 'object' && !Array.isArray(given)) {
    const known = Object.keys(schema.shape);
    const unknown = Object.keys(given).filter((name) => !known.includes(name));
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
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw inputErrorFrom(parsed.error, about.fix);
  return parsed.data;
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
