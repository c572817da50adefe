import {
  type CompleteResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { type Completer, type CompletionContext, enumValues, startingWith } from './define-prompt.js';
import type { ResourceDefinition } from './define-resource.js';
import type { PromptOffer } from './prompt-gets.js';

/** MCP caps one reply at 100 values; `total` and `hasMore` say how many matched. */
export const MAX_COMPLETIONS = 100;

export function completionResult(values: readonly string[]): CompleteResult {
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETIONS),
      total: values.length,
      hasMore: values.length > MAX_COMPLETIONS,
    },
  };
}

export interface CompletionDeps {
  server: Server;
  offer: PromptOffer;
  resources: readonly ResourceDefinition[];
  contextFor(filled: Record<string, string>): CompletionContext;
  log: Logger;
}

/**
 * completion/complete for prompt arguments and resource template variables: an argument's own
 * completer when it has one (model ids from the platform), else its enum's values. A completer
 * that fails (platform down, no platform configured) suggests nothing rather than erroring: a
 * completion is typing help, not a call the person made.
 */
export function registerCompletions(deps: CompletionDeps): void {
  deps.server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    const filled = request.params.context?.arguments ?? {};
    let completer: Completer | undefined;
    let choices: readonly string[] = [];
    if (ref.type === 'ref/prompt') {
      const prompt = deps.offer.find(ref.name);
      const schema = prompt.arguments.shape[argument.name];
      if (!schema) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Prompt "${prompt.name}" has no argument "${argument.name}"; it takes: ${Object.keys(prompt.arguments.shape).join(', ')}.`,
        );
      }
      completer = prompt.complete[argument.name];
      choices = enumValues(schema) ?? [];
    } else {
      const resource = deps.resources.find((candidate) => candidate.uriTemplate === ref.uri);
      if (!resource) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown resource template ${ref.uri}; list resource templates to see what exists.`,
        );
      }
      completer = resource.complete?.[argument.name];
    }
    if (!completer) return completionResult(startingWith(choices, argument.value));
    try {
      return completionResult(await completer(argument.value, deps.contextFor(filled)));
    } catch (error) {
      deps.log.debug(`completing ${argument.name} failed`, {
        error: error instanceof Error ? error.message : String(error),
      });
      return completionResult([]);
    }
  });
}
