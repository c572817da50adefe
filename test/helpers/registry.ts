import { resources } from '../../resources/index.js';
import { toolCatalog } from '../../tools/index.js';

/** What the CLI hands the transports: every tool and resource. */
export const registry = { tools: toolCatalog, resources };
