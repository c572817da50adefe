import type { z } from 'zod';
import { InputError } from '../errors.js';
import type { AnyTool } from './define-tool.js';

/**
 * A call's arguments, checked before anything runs: names the tool does not take are refused
 * (a misspelt option would otherwise be dropped without a word), then the schema's own rules.
 */
export function parseArguments(tool: AnyTool, args: unknown): Record<string, unknown> {
  const given = args ?? {};
  // A loose input schema takes extra fields on purpose (passed through to the platform).
  if (tool.input.def.catchall === undefined && typeof given === 'object' && !Array.isArray(given)) {
    const known = Object.keys(tool.input.shape);
    const unknown = Object.keys(given).filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new InputError(
        `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `\`${name}\``).join(', ')}.`,
        {
          fix: known.length
            ? `${tool.name} takes: ${known.join(', ')}.`
            : `${tool.name} takes no arguments; call it with {}.`,
          param: unknown[0],
        },
      );
    }
  }
  const parsed = tool.input.safeParse(given);
  if (!parsed.success) throw inputErrorFrom(parsed.error);
  return parsed.data;
}

/** Bad arguments: every problem, with the argument path, in one message. */
export function inputErrorFrom(error: z.ZodError): InputError {
  const problems = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : '(arguments)';
    return `${path}: ${issue.message}`;
  });
  return new InputError(`Invalid arguments: ${problems.join('; ')}.`, {
    fix: 'Correct the named arguments (see the tool input schema) and call again.',
  });
}
