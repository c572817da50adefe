import { prompts } from '../../prompts/index.js';
import { resources } from '../../resources/index.js';
import type { Registry } from '../../src/mcp/server.js';
import { toolCatalog } from '../../tools/index.js';

/** What the CLI hands the transports: every tool, resource and prompt. */
export const registry: Registry = { tools: toolCatalog, resources, prompts };
