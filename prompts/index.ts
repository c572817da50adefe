import type { AnyPrompt } from '../src/mcp/define-prompt.js';

/** Every prompt, in the order prompts/list shows them. Adding one: a file `prompts/<name>.ts` and a line here. */
export const prompts: readonly AnyPrompt[] = [];
