import { escapeRegExp } from '../util.js';
import { fillArguments } from './tool-args.js';

/**
 * Tool use, reduced to what the three wire formats share: tools offered, the caller's choice, the
 * calls the model makes and the results it is given back. Each route translates its own syntax
 * into these (text/tool-input.ts) and renders calls in its own shape.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/** `none`, `auto`, `required` (messages `any`), or one named tool. */
export type ToolChoice =
  | { type: 'none' }
  | { type: 'auto' }
  | { type: 'required' }
  | { type: 'tool'; name: string };

export interface ToolSetup {
  tools: ToolSpec[];
  choice: ToolChoice;
  /** Several calls in one turn are allowed (`parallel_tool_calls`, not `disable_parallel_tool_use`). */
  parallel: boolean;
}

export interface ToolCall {
  name: string;
  /** The arguments as the JSON text the model emits. */
  arguments: string;
}

/** A tool result handed back to the model, with the name of the tool that produced it. */
export interface ToolResult {
  name: string;
  content: string;
}

const MAX_TOOLS_READ = 128;
const MAX_PROMPT_READ = 2_000;

/**
 * The calls a deterministic model makes: a named `tool_choice` calls that tool; otherwise the tools
 * the prompt mentions (by name, or by name with `_`/`-` read as spaces), in the order mentioned; with
 * `required` and no mention, the first tool offered. After tool results, `auto` answers in text.
 */
export function planToolCalls(
  offered: ToolSetup | undefined,
  wholePrompt: string,
  afterResults: boolean,
): ToolCall[] {
  if (!offered || offered.tools.length === 0 || offered.choice.type === 'none') return [];
  // The emulated model reads the first 128 tools and 2,000 characters of the prompt: its patterns
  // cost more than linear time in what they read, and a request may carry megabytes of both.
  const setup = { ...offered, tools: offered.tools.slice(0, MAX_TOOLS_READ) };
  const prompt = wholePrompt.slice(0, MAX_PROMPT_READ);
  let chosen: ToolSpec[];
  const { choice } = setup;
  if (choice.type === 'tool') {
    chosen = setup.tools.filter((tool) => tool.name === choice.name);
  } else if (afterResults && choice.type === 'auto') {
    return [];
  } else {
    chosen = mentioned(setup.tools, prompt);
    if (chosen.length === 0 && choice.type === 'required') chosen = setup.tools.slice(0, 1);
  }
  if (!setup.parallel) chosen = chosen.slice(0, 1);
  return chosen.map((tool) => ({
    name: tool.name,
    arguments: JSON.stringify(fillArguments(tool.parameters, withoutToolNames(prompt, setup.tools))),
  }));
}

function mentioned(tools: ToolSpec[], prompt: string): ToolSpec[] {
  const lower = prompt.toLowerCase();
  return tools
    .map((tool) => ({ tool, at: mentionAt(lower, tool.name.toLowerCase()) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((m) => m.tool);
}

function mentionAt(lower: string, name: string): number {
  for (const form of [name, name.replace(/[_-]+/g, ' ')]) {
    const match = new RegExp(`(^|[^\\w])${escapeRegExp(form)}($|[^\\w])`).exec(lower);
    if (match) return match.index;
  }
  return -1;
}

/** Tool names are not argument values ("Use the get_weather tool for Paris" fills `city`, not `get_weather`). */
function withoutToolNames(prompt: string, tools: ToolSpec[]): string {
  return tools.reduce((text, tool) => text.replace(new RegExp(escapeRegExp(tool.name), 'gi'), ' '), prompt);
}

/** Argument JSON split the way a model streams it: several small pieces that join back exactly. */
export function argumentPieces(json: string): string[] {
  const chars = Array.from(json);
  const size = Math.max(1, Math.min(6, Math.ceil(chars.length / 3)));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}
