import { z } from 'zod';
import type { Toolset } from '../config.js';
import type { Target } from '../context.js';
import type { Api } from '../upstream/client.js';

/**
 * A prompt's arguments. MCP sends every prompt argument as a string, so each field takes a string
 * (or nothing, when optional); it may narrow it (an enum) or turn it into something else (a list).
 */
export type PromptArguments = z.ZodObject<Record<string, z.ZodType<unknown, string | undefined>>>;

/** One message of a rendered prompt; the dispatcher sends it as text content. */
interface PromptText {
  role: 'user' | 'assistant';
  text: string;
}

/** What a prompt may know while rendering: what this connection offers. */
export interface PromptContext {
  /** The tools this connection lists, by name, with their toolset. */
  tools: ReadonlyMap<string, Toolset>;
  /** Toolsets switched on for this connection. */
  toolsets: readonly Toolset[];
  readOnly: boolean;
  target: Target;
}

/** What a completer gets besides the typed value. */
export interface CompletionContext extends PromptContext {
  api: Api;
  /** Whose view of the platform this is (`local`, or the caller's key fingerprint over HTTP); caches are kept per tenant. */
  tenant: string;
  /** Other arguments the person has already filled in. */
  arguments: Readonly<Record<string, string>>;
}

/** Suggestions for an argument's value from what has been typed so far (filtering included). */
export type Completer = (value: string, ctx: CompletionContext) => Promise<readonly string[]>;

export interface PromptSpec<A extends PromptArguments> {
  /** snake_case, what a person types after the slash. */
  name: string;
  title: string;
  /** What it does, in a line a person picks it by. */
  description: string;
  arguments: A;
  /**
   * Every tool the prompt tells the model to call. The prompt is offered only where each of them is
   * (a switched-off toolset or `--read-only` hides the prompt with the tool).
   */
  tools: readonly string[];
  /** Completers for arguments whose values come from elsewhere (model ids); enums complete on their own. */
  complete?: { [K in keyof z.infer<A>]?: Completer };
  render(args: z.infer<A>, ctx: PromptContext): PromptText[];
}

/** The form every prompt takes once defined. */
export interface AnyPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArguments;
  tools: readonly string[];
  complete: Readonly<Record<string, Completer | undefined>>;
  render(args: Record<string, unknown>, ctx: PromptContext): PromptText[];
}

/** Keeps a prompt's argument types together with its renderer. */
export function definePrompt<A extends PromptArguments>(spec: PromptSpec<A>): AnyPrompt {
  return {
    ...spec,
    complete: (spec.complete ?? {}) as Record<string, Completer | undefined>,
    // The dispatcher parses the arguments with `spec.arguments` before rendering.
    render: spec.render as AnyPrompt['render'],
  };
}

/** The values that start with what was typed, ignoring case, in their own order. */
export function startingWith(values: readonly string[], typed: string): string[] {
  const prefix = typed.trim().toLowerCase();
  return values.filter((value) => value.toLowerCase().startsWith(prefix));
}

/** The values an enum argument takes (through optional and default), or undefined for any other. */
export function enumValues(schema: z.ZodType): readonly string[] | undefined {
  const inner = unwrap(schema);
  return inner instanceof z.ZodEnum ? inner.options.map(String) : undefined;
}

/** The argument's description, wherever in its wrappers it was given. */
export function describeArgument(schema: z.ZodType): string | undefined {
  return schema.description ?? unwrap(schema).description;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) {
    current = current.def.innerType as z.ZodType;
  }
  return current;
}
