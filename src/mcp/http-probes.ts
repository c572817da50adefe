import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import type { Drain } from './http-drain.js';
import { json } from './http-request.js';
import { isResourceMetadataPath, publicOrigin, resourceMetadata } from './resource-metadata.js';

export interface ProbeDeps {
  runtime: Pick<Runtime, 'target' | 'replicaId' | 'store'>;
  drain: Drain;
  mcpPath: string;
  /** Live 2025 sessions on this replica. */
  sessions(): number;
}

/**
 * The endpoint's paths other than MCP itself: `/health` (the process is up), `/ready` (it takes
 * traffic: not draining, and its store answers) and the OAuth protected-resource metadata.
 * Returns false when the path is none of them.
 */
export function createProbes(deps: ProbeDeps) {
  const { runtime, drain, mcpPath } = deps;
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname === '/health') {
      json(res, 200, {
        status: drain.draining ? 'draining' : 'ok',
        version: VERSION,
        target: runtime.target.kind,
        replica: runtime.replicaId,
        store: runtime.store.kind,
        sessions: deps.sessions(),
      });
      return true;
    }
    if (url.pathname === '/ready') {
      const storeUp = drain.draining ? undefined : await runtime.store.ping();
      const ready = !drain.draining && storeUp === true;
      json(res, ready ? 200 : 503, {
        status: ready ? 'ready' : drain.draining ? 'draining' : 'store_unreachable',
        replica: runtime.replicaId,
        store: runtime.store.kind,
      });
      return true;
    }
    if (isResourceMetadataPath(url.pathname, mcpPath)) {
      const doc = resourceMetadata(publicOrigin(req), mcpPath, runtime.target);
      if (doc) json(res, 200, doc);
      else
        json(res, 404, {
          error: 'not_found',
          message: 'No platform is configured, so there is no authorization server.',
        });
      return true;
    }
    return false;
  };
}
