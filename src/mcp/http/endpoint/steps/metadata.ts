import type { Target } from '../../../../context.js';
import { refuse } from '../../auth/refuse.js';
import type { Step } from '../chain.js';
import { answerMetadata } from '../probes.js';
import { answerServerCard } from '../server-card.js';

/** The public documents (resource metadata, server card); any other path than the endpoint's is 404. */
export function metadataStep(mcpPath: string, target: Target): Step {
  return ({ req, res, url }) => {
    if (!url) return false;
    if (answerMetadata(req, res, url, mcpPath, target)) return true;
    if (answerServerCard(req, res, url, mcpPath)) return true;
    if (url.pathname === mcpPath) return false;
    refuse(res, 404, 'not_found', `MCP endpoint is ${mcpPath}`);
    return true;
  };
}
