/**
 * Rules across every prompt: names and files, described string arguments, and prompt text that
 * names real tools with real arguments. A model follows a prompt's calls literally, so each
 * `tool` with {...} in a rendered prompt must be a tool of the catalog, declared by the prompt
 * (which hides it where the tool is off), with arguments the tool's own schema accepts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prompts } from '../../prompts/index.js';
import { promptTable, replaceBlock } from '../../scripts/docs.js';
import { TOOLSETS, type Toolset } from '../../src/config.js';
import { parseArguments } from '../../src/mcp/arguments.js';
import type { AnyPrompt, PromptContext } from '../../src/mcp/define-prompt.js';
import { parsePromptArguments } from '../../src/mcp/prompt-gets.js';
import { toolCatalog } from '../../tools/index.js';

/** Every prompt rendered with only its required arguments, and with every argument given. */
const SAMPLES: Record<string, Record<string, string>[]> = {
  compare_models: [
    { question: 'Why is the sky blue?' },
    { question: 'Why is the sky blue?', models: 'openai/gpt-sandbox,anthropic/claude-sandbox' },
  ],
  summarize_video: [
    { url: 'https://youtu.be/abc' },
    { url: 'https://youtu.be/abc', style: 'outline', model: 'google/gemini-sandbox' },
  ],
  narrated_clip: [
    { subject: 'a fox' },
    {
      subject: 'a fox',
      narration: 'A fox.',
      aspect_ratio: '1:1',
      image_model: 'pixel-lite',
      video_model: 'sandbox/video-lite',
    },
  ],
  check_spending: [{}, { plan: '20 images with pixel-lite' }],
  get_started: [{}, { toolset: 'media' }, { toolset: 'text' }],
};

const allToolsets = Object.keys(TOOLSETS) as Toolset[];
const context: PromptContext = {
  tools: new Map(toolCatalog.enabled(allToolsets, false).map((entry) => [entry.name, entry.toolset])),
  toolsets: allToolsets,
  readOnly: false,
  target: { kind: 'none' },
};
const catalog = new Map(toolCatalog.entries.map((entry) => [entry.name, entry]));

function renders(prompt: AnyPrompt): string[] {
  return (SAMPLES[prompt.name] ?? []).map((args) =>
    prompt
      .render(parsePromptArguments(prompt, args), context)
      .map((message) => message.text)
      .join('\n'),
  );
}

/** Each `tool` with {json} in a text, the JSON read with its strings respected. */
function callsIn(text: string): { tool: string; args: Record<string, unknown> }[] {
  const calls = [];
  for (const match of text.matchAll(/`([a-z][a-z0-9_]*)` with \{/g)) {
    const start = match.index + match[0].length - 1;
    let depth = 0;
    let inString = false;
    let end = start;
    for (; end < text.length; end++) {
      const char = text[end];
      if (inString) {
        if (char === '\\') end++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) break;
    }
    calls.push({ tool: match[1]!, args: JSON.parse(text.slice(start, end + 1)) });
  }
  return calls;
}

describe('prompt registry', () => {
  it('has unique snake_case names, each in prompts/<name>.ts and registered', () => {
    const names = prompts.map((prompt) => prompt.name);
    expect(new Set(names).size).toBe(names.length);
    const registry = readFileSync('prompts/index.ts', 'utf8');
    for (const name of names) {
      expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(existsSync(`prompts/${name}.ts`), name).toBe(true);
      expect(registry).toContain(`from './${name}.js'`);
      expect(Object.keys(SAMPLES), `SAMPLES has ${name}`).toContain(name);
    }
  });

  it('gives every prompt a title, a one-line description, and described string arguments', () => {
    for (const prompt of prompts) {
      expect(prompt.title.length, prompt.name).toBeGreaterThan(3);
      expect(prompt.description.length, prompt.name).toBeGreaterThan(30);
      expect(prompt.description.length, prompt.name).toBeLessThanOrEqual(120);
      for (const [name, schema] of Object.entries(prompt.arguments.shape)) {
        const json = z.toJSONSchema(schema, { io: 'input' }) as { type?: string };
        expect(json.type, `${prompt.name}.${name} takes a string`).toBe('string');
        expect(schema.description ?? '', `${prompt.name}.${name}`).not.toBe('');
      }
      for (const name of Object.keys(prompt.complete)) {
        expect(Object.keys(prompt.arguments.shape), `${prompt.name} completes ${name}`).toContain(name);
      }
    }
  });

  it('calls only catalog tools the prompt declares, with arguments their schemas accept', async () => {
    for (const prompt of prompts) {
      const called = new Set<string>();
      for (const text of renders(prompt)) {
        for (const { tool, args } of callsIn(text)) {
          called.add(tool);
          expect(prompt.tools, `${prompt.name} declares ${tool}`).toContain(tool);
          expect(catalog.has(tool), `${prompt.name} calls ${tool}, which is not in the catalog`).toBe(true);
          const module = await toolCatalog.load(tool);
          expect(
            () => parseArguments(module, args),
            `${prompt.name}: ${tool} ${JSON.stringify(args)}`,
          ).not.toThrow();
        }
        // Tools named without a call (a tour) are real too.
        for (const [, name] of text.matchAll(/`([a-z][a-z0-9]*_[a-z0-9_]+|chat|transcribe|embed)`/g)) {
          expect(catalog.has(name!), `${prompt.name} names ${name}`).toBe(true);
        }
      }
      // No declared tool goes unused: a stale one would hide the prompt for nothing.
      expect([...called].sort(), prompt.name).toEqual([...prompt.tools].sort());
    }
  });

  it('the README prompt table matches the registry (run npm run generate)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(replaceBlock(readme, 'prompts', promptTable(prompts))).toBe(readme);
  });
});
