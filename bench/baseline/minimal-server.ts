/**
 * The baseline for start-up and memory: the smallest useful MCP server the SDK allows (one `echo`
 * tool, zod input), served over stdio for both protocol eras by the SDK's own entry. The bench
 * bundles it exactly as scripts/build.ts bundles orbit-mcp, so the comparison is of what each
 * server does at start, not of how it is packaged.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createEchoServer } from './echo.js';

serveStdio(() => createEchoServer());
