/** Generated documents: the manifest's tool list and the README's tool table come from the registry. */

import pkg from '../package.json' with { type: 'json' };
import { TOOLSETS } from '../src/config.js';
import { type AnyPrompt, enumValues } from '../src/mcp/define-prompt.js';
import type { AnyTool, Nature } from '../src/mcp/define-tool.js';
import { PLATFORM_WORD } from '../src/word.js';

/**
 * The platform's areas in prose, each keyed by a tool whose presence proves the area ships, in the
 * order they are told. The package and manifest descriptions and the README's first paragraph
 * are generated from it, so they claim what the registry holds, no more and no less.
 */
const AREAS: readonly (readonly [tool: string, phrase: string])[] = [
  ['chat', 'chat with any model'],
  ['web_search', 'web search'],
  ['models_list', 'model catalogs'],
  ['data_call', 'the data API'],
  ['image_generate', 'images'],
  ['video_generate', 'video'],
  ['speech_generate', 'speech'],
  ['music_generate', 'music'],
  ['transcribe', 'transcription'],
  ['embed', 'embeddings'],
  ['x402_complete', 'x402 pay-per-call'],
  ['eval_run', 'evaluations'],
  ['usage_get', 'usage'],
  ['batches_list', 'batches'],
  ['api_keys_read', 'API keys'],
  ['teams_read', 'teams'],
  ['tee_attestation', 'enclave attestation'],
];

/** "chat with any model, web search, ... and enclave attestation": the areas that ship. */
export function areasShipped(tools: readonly AnyTool[]): string {
  const names = new Set(tools.map((tool) => tool.name));
  const phrases = AREAS.filter(([tool]) => names.has(tool)).map(([, phrase]) => phrase);
  return phrases.length < 2 ? phrases.join('') : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}`;
}

/** package.json's and manifest.json's description. */
export function packageDescription(tools: readonly AnyTool[]): string {
  return `MCP server for the Orbit AI platform: ${areasShipped(tools)}, with a built-in offline sandbox.`;
}

/** MCPB fills `${name}` placeholders at install time; they are literal text here. */
const placeholder = (name: string) => `\${${name}}`;

export function manifestFor(tools: readonly AnyTool[]) {
  const env = PLATFORM_WORD.toUpperCase();
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'Orbit',
    version: pkg.version,
    description: packageDescription(tools),
    author: { name: 'orbit-mcp developers' },
    license: pkg.license,
    keywords: ['mcp', 'llm', 'chat', 'search', 'images', 'video', 'speech'],
    server: {
      type: 'node',
      entry_point: 'dist/orbit-mcp.js',
      mcp_config: {
        command: 'node',
        args: [`${placeholder('__dirname')}/dist/orbit-mcp.js`],
        env: {
          [`${env}_API_KEY`]: placeholder('user_config.api_key'),
          [`${env}_BASE_URL`]: placeholder('user_config.base_url'),
        },
      },
    },
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description })),
    tools_generated: false,
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: pkg.engines.node } },
    user_config: {
      api_key: {
        type: 'string',
        title: 'API key',
        description: 'Your platform API key. Leave empty to sign in through the browser on first use.',
        sensitive: true,
        required: false,
      },
      base_url: {
        type: 'string',
        title: 'Platform base URL',
        description: 'The platform address, for example https://api.example.com.',
        required: true,
      },
    },
  };
}

const NATURE_WORDS: Record<Nature, string> = {
  read: 'reads',
  spend: 'spends',
  write: 'writes',
  delete: 'deletes',
};

/** What a tool does and needs, from its operations: every nature and credential it can touch. */
export function toolTable(tools: readonly AnyTool[]): string {
  const rows = tools.map((tool) => {
    const operations = Object.values(tool.operations);
    const natures = unique(operations.map((op) => NATURE_WORDS[op.nature])).join(', ');
    const credentials = unique(operations.map((op) => op.credential.replace('_', ' '))).join(', ');
    const on = TOOLSETS[tool.toolset] ? tool.toolset : `${tool.toolset} (off)`;
    return `| \`${tool.name}\` | ${on} | ${natures} | ${credentials} | ${tool.description.replace(/\|/g, '\\|')} |`;
  });
  return ['| tool | toolset | nature | credential | what it does |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

/** Each prompt with its arguments (optional ones after "optional:", enum choices spelt out) and the tools it calls. */
export function promptTable(prompts: readonly AnyPrompt[]): string {
  const rows = prompts.map((prompt) => {
    const args = Object.entries(prompt.arguments.shape).map(([name, schema]) => {
      const choices = enumValues(schema);
      return {
        optional: schema.isOptional(),
        text: `\`${name}\`${choices ? ` (${choices.join(', ')})` : ''}`,
      };
    });
    const required = args.filter((arg) => !arg.optional).map((arg) => arg.text);
    const optional = args.filter((arg) => arg.optional).map((arg) => arg.text);
    const listed = [...required, ...(optional.length ? [`optional: ${optional.join(', ')}`] : [])].join('; ');
    const tools = prompt.tools.map((tool) => `\`${tool}\``).join(', ');
    return `| \`${prompt.name}\` | ${listed || '-'} | ${tools || '-'} | ${prompt.description.replace(/\|/g, '\\|')} |`;
  });
  return ['| prompt | arguments | tools it calls | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`: a block on lines of its
 * own, or inline (inside a sentence, where markdown hides the comments).
 */
export function replaceBlock(document: string, name: string, body: string, inline = false): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README lacks the ${start} ... ${end} markers`);
  const newline = inline ? '' : '\n';
  return `${document.slice(0, from + start.length)}${newline}${body}${newline}${document.slice(to)}`;
}
