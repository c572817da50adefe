/**
 * The baseline for start-up and memory: the smallest useful MCP server the SDK allows (one `echo`
 * tool, zod input), served over stdio. The bench bundles it exactly as scripts/build.ts bundles
 * orbit-mcp, so the comparison is of what each server does at start, not of how it is packaged.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEchoServer } from './echo.js';

await createEchoServer().connect(new StdioServerTransport());
