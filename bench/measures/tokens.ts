import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { childEnv, INITIALIZE, StdioChild } from '../lib/child.js';
import type { Figure } from '../lib/figure.js';
import { round } from '../lib/stats.js';

/** The `tools` array of tools/list from the built server, as a client receives it. */
async function listTools(args: string[], env: Record<string, string>): Promise<unknown[]> {
  const child = new StdioChild(process.execPath, args, childEnv(env));
  try {
    const initialized = child.reply(1);
    child.send(INITIALIZE);
    await initialized;
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const listed = child.reply(2);
    child.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const { message } = await listed;
    const result = message.result as { tools?: unknown[] } | undefined;
    if (!Array.isArray(result?.tools))
      throw new Error(`tools/list gave no tools: ${JSON.stringify(message)}`);
    return result.tools;
  } finally {
    await child.stop();
  }
}

/**
 * What the tool list costs a model on every turn: o200k_base tokens of the JSON of the tools
 * array (names, descriptions, input and output schemas, annotations), default toolsets and all.
 */
export async function measureTokens(args: string[], env: Record<string, string>): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [label, toolsets] of [
    ['default toolsets', undefined],
    ['all toolsets', 'all'],
  ] as const) {
    const tools = await listTools(args, toolsets ? { ...env, ORBIT_TOOLSETS: toolsets } : env);
    const total = countTokens(JSON.stringify(tools));
    const perTool = total / tools.length;
    const perToolCounts = Object.fromEntries(
      tools.map((tool) => [(tool as { name?: string }).name ?? '?', countTokens(JSON.stringify(tool))]),
    );
    figures.push({
      id: toolsets ? 'tokens_all' : 'tokens_default',
      measure: `tools/list tokens per tool, ${label} (${tools.length} tools, ${total} tokens)`,
      unit: 'tokens',
      orbit: round(perTool, 0),
      target: '< 200',
      pass: perTool < 200,
      details: { tools: tools.length, totalTokens: total, tokenizer: 'o200k_base', perTool: perToolCounts },
    });
  }
  return figures;
}
