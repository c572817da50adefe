/** Generated documents: the manifest's tool list and the README's tool table come from the registry. */

import pkg from '../package.json' with { type: 'json' };
import { DEFAULT_TOOLSETS } from '../src/config.js';
import { type AnyPrompt, enumValues } from '../src/mcp/define-prompt.js';
import type { AnyTool, Nature } from '../src/mcp/define-tool.js';
import { PLATFORM_WORD } from '../src/word.js';

/** MCPB fills `${name}` placeholders at install time; they are literal text here. */
const placeholder = (name: string) => `\${${name}}`;

export function manifestFor(tools: readonly AnyTool[]) {
  const env = PLATFORM_WORD.toUpperCase();
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'Orbit',
    version: pkg.version,
    description: pkg.description,
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
    const on = DEFAULT_TOOLSETS.includes(tool.toolset) ? tool.toolset : `${tool.toolset} (off)`;
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

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBlock(document: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README lacks the ${start} ... ${end} markers`);
  return `${document.slice(0, from + start.length)}\n${body}\n${document.slice(to)}`;
}
