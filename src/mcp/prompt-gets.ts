import {
  type GetPromptResult,
  type Prompt,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import { isOrbitError } from '../errors.js';
import type { Redactor } from '../secrets.js';
import { parseInput } from './arguments.js';
import type { CatalogEntry } from './catalog.js';
import { type AnyPrompt, describeArgument, enumValues, type PromptContext } from './define-prompt.js';

/**
 * The prompts one connection offers: each prompt whose tools this connection lists, so a toolset
 * switched off, or `--read-only`, hides the prompts that need its tools.
 */
export class PromptOffer {
  private offered?: Map<string, AnyPrompt>;
  private rendering?: PromptContext;

  /** Built per connection or per request; the work waits for the first prompt request. */
  constructor(
    private readonly prompts: readonly AnyPrompt[],
    private readonly connection: Omit<PromptContext, 'tools'> & { listed: readonly CatalogEntry[] },
  ) {}

  /** What prompts render with: this connection's tools and settings. */
  get context(): PromptContext {
    if (!this.rendering) {
      const { listed, ...settings } = this.connection;
      this.rendering = { ...settings, tools: new Map(listed.map((entry) => [entry.name, entry.toolset])) };
    }
    return this.rendering;
  }

  /** Offered prompts, in registry order (worked out on first use: most requests never ask). */
  get visible(): readonly AnyPrompt[] {
    return [...this.byName().values()];
  }

  /** The offered prompt of that name, or an InvalidParams error that says why there is none. */
  find(name: string): AnyPrompt {
    const prompt = this.byName().get(name);
    if (prompt) return prompt;
    const known = this.prompts.find((candidate) => candidate.name === name);
    const offered = this.visible.map((candidate) => candidate.name).join(', ') || 'none';
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      known
        ? `Prompt "${name}" needs ${this.missing(known).join(', ')}, which this connection does not offer (a toolset switched off, or read-only mode). Prompts here: ${offered}.`
        : `Unknown prompt "${name}". Prompts here: ${offered}.`,
    );
  }

  private byName(): Map<string, AnyPrompt> {
    this.offered ??= new Map(
      this.prompts
        .filter((prompt) => this.missing(prompt).length === 0)
        .map((prompt) => [prompt.name, prompt]),
    );
    return this.offered;
  }

  private missing(prompt: AnyPrompt): string[] {
    return prompt.tools.filter((tool) => !this.context.tools.has(tool));
  }
}

const listings = new WeakMap<AnyPrompt, Prompt>();

/** The wire form of a prompt: arguments with their descriptions, enum choices spelt out for clients without completion. */
export function promptListing(prompt: AnyPrompt): Prompt {
  let listed = listings.get(prompt);
  if (!listed) {
    listed = {
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: Object.entries(prompt.arguments.shape).map(([name, schema]) => {
        const choices = enumValues(schema);
        const description = describeArgument(schema);
        return {
          name,
          description: choices ? `${description ?? name} (one of: ${choices.join(', ')})` : description,
          required: !schema.isOptional(),
        };
      }),
    };
    listings.set(prompt, listed);
  }
  return listed;
}

/**
 * A prompt's arguments, checked like a tool's: missing required ones named first (a person fills
 * these in a form), then unknown names and the schema's rules. Refusals are InvalidParams errors.
 */
export function parsePromptArguments(prompt: AnyPrompt, args: Record<string, unknown> | undefined) {
  const given = args ?? {};
  const missing = Object.entries(prompt.arguments.shape)
    .filter(([name, schema]) => !schema.isOptional() && (given[name] === undefined || given[name] === ''))
    .map(([name, schema]) => `\`${name}\` (${describeArgument(schema) ?? 'required'})`);
  if (missing.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt "${prompt.name}" needs ${missing.join(', ')}.`,
    );
  }
  try {
    return parseInput(prompt.arguments, given, {
      owner: prompt.name,
      fix: 'Correct the named arguments (prompts/list describes each) and get the prompt again.',
    });
  } catch (error) {
    if (!isOrbitError(error)) throw error;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt "${prompt.name}": ${error.message}${error.fix ? ` ${error.fix}` : ''}`,
    );
  }
}

/** prompts/list and prompts/get over the prompt registry. */
export function registerPrompts(deps: { server: Server; offer: PromptOffer; redactor: Redactor }): void {
  const { server, offer, redactor } = deps;
  server.setRequestHandler('prompts/list', async () => ({ prompts: offer.visible.map(promptListing) }));
  server.setRequestHandler('prompts/get', async (request): Promise<GetPromptResult> => {
    const prompt = offer.find(request.params.name);
    const args = parsePromptArguments(prompt, request.params.arguments);
    return {
      description: prompt.description,
      messages: prompt.render(args, offer.context).map((message) => ({
        role: message.role,
        content: { type: 'text', text: redactor.text(message.text) },
      })),
    };
  });
}
