/**
 * Converts every framework's tools to OpenAI strict mode and checks the result (Node 22: it uses
 * the OpenAI Agents SDK). A framework with its own strict conversion (openai-agents) is judged on
 * that; for the others, the schemas they hand to a model go through the Agents SDK's MCP
 * conversion (`convertSchemasToStrict`), which is what OpenAI's own SDK does with MCP tools.
 * Reads the workers' results from argv[2], writes `{ [case id]: Cell }` to argv[3].
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { MCPServerStdio, mcpToFunctionTool } from '@openai/agents';
import { installCapture, warningsDuring } from './lib/capture.js';
import { isRecord } from './lib/session.js';
import { strictProblems } from './lib/strict.js';
import type { Cell, StrictTool, WorkerResult } from './lib/types.js';

type McpTool = Parameters<typeof mcpToFunctionTool>[0];

installCapture();
const [resultsPath, outPath] = process.argv.slice(2);
if (!resultsPath || !outPath) throw new Error('usage: strict-check.ts <results.json> <out.json>');
const results: WorkerResult[] = JSON.parse(readFileSync(resultsPath, 'utf8'));
// Never connected: mcpToFunctionTool only needs a server to bind the tool to.
const server = new MCPServerStdio({ name: 'orbit', command: 'true' });

async function convert(result: WorkerResult): Promise<{ tools: StrictTool[]; warnings: string[] }> {
  if (result.frameworkStrict) return { tools: result.frameworkStrict, warnings: result.strictWarnings ?? [] };
  const { value, warnings } = await warningsDuring(async () =>
    result.delivered.map((tool) => {
      // As listed, unchanged: the SDK's type asks for `required` and `additionalProperties`, which
      // its MCP path fills in itself when a server leaves them out.
      const inputSchema = (isRecord(tool.parameters) ? tool.parameters : {}) as McpTool['inputSchema'];
      const converted = mcpToFunctionTool({ name: tool.name, description: '', inputSchema }, server, true);
      return { name: tool.name, strict: converted.strict, parameters: converted.parameters };
    }),
  );
  return { tools: value, warnings };
}

const cells: Record<string, Cell> = {};
for (const result of results) {
  if (result.delivered.length === 0) {
    cells[result.id] = { status: 'fail', note: 'no tools listed' };
    continue;
  }
  const { tools, warnings } = await convert(result);
  const notStrict = tools.filter((tool) => !tool.strict).map((tool) => tool.name);
  const broken = tools.flatMap((tool) =>
    tool.strict ? strictProblems(tool.parameters).map((problem) => `${tool.name} ${problem}`) : [],
  );
  const how = result.frameworkStrict ? 'own conversion' : 'Agents SDK conversion';
  cells[result.id] =
    notStrict.length || broken.length || warnings.length
      ? {
          status: 'fail',
          note: [
            notStrict.length ? `not strict: ${notStrict.join(', ')}` : '',
            broken.length ? `rejected: ${broken.slice(0, 3).join('; ')}${broken.length > 3 ? ' …' : ''}` : '',
            warnings.length ? `${warnings.length} warning(s)` : '',
          ]
            .filter(Boolean)
            .join('; '),
        }
      : { status: 'pass', note: `${tools.length}/${tools.length} strict (${how})` };
}
writeFileSync(outPath, JSON.stringify(cells));
process.exit(0);
