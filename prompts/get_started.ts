import { z } from 'zod';
import { ALL_TOOLSETS, type Toolset } from '../src/config.js';
import { definePrompt } from '../src/mcp/define-prompt.js';
import { ENV_PREFIX } from '../src/word.js';
import { toolCatalog } from '../tools/index.js';

/** Toolsets that have tools in this build, in the configuration's order. */
const withTools = ALL_TOOLSETS.filter(toolCatalog.hasTools) as [Toolset, ...Toolset[]];

const names = (tools: string[]) => tools.map((tool) => `\`${tool}\``).join(', ');

export default definePrompt({
  name: 'get_started',
  title: 'Get started',
  description:
    "A quick tour of what this server's tools do, all of them or one toolset's, with a first call for each.",
  arguments: z.object({
    toolset: z.enum(withTools).optional().describe('the toolset to tour; empty: every toolset switched on'),
  }),
  tools: [],
  render: ({ toolset }, ctx) => {
    const of = (set: Toolset) => [...ctx.tools].filter(([, owner]) => owner === set).map(([tool]) => tool);
    const tour =
      'For each tool say in one line what it is for and show one first call with its arguments. Run nothing that costs money; you may run one read-only tool to show real output.';
    if (!toolset) {
      const lines = ctx.toolsets.flatMap((set) => (of(set).length ? [`- ${set}: ${names(of(set))}`] : []));
      return [
        {
          role: 'user',
          text: `Give me a quick tour of the tools this server offers:\n${lines.join('\n')}\n\n${tour}`,
        },
      ];
    }
    if (of(toolset).length > 0) {
      return [
        {
          role: 'user',
          text: `Give me a quick tour of the ${toolset} tools: ${names(of(toolset))}.\n\n${tour}`,
        },
      ];
    }
    const why = ctx.toolsets.includes(toolset)
      ? 'read-only mode hides them (they write or spend); the server offers them when started without `--read-only`'
      : `the toolset is switched off; the server offers it when started with \`--toolsets ${[...ctx.toolsets, toolset].join(',')}\` (or ${ENV_PREFIX}TOOLSETS, or \`?toolsets=\` on the HTTP address; \`all\` switches every toolset on)`;
    return [
      {
        role: 'user',
        text: `I asked for a tour of the ${toolset} tools, but this connection does not offer them: ${why}. Tell me so in two lines.`,
      },
    ];
  },
});
