import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime, Target } from '../../../runtime.js';
import { VERSION } from '../../../version.js';
import { refuse } from '../auth/refuse.js';
import { isResourceMetadataPath, publicOrigin, resourceMetadata } from '../auth/resource-metadata.js';
import type { Drain } from './drain.js';
import { json } from './request.js';

export interface ProbeDeps {
  runtime: Pick<Runtime, 'target' | 'replicaId' | 'store'>;
  drain: Drain;
  /** Live 2025 sessions on this replica. */
  sessions(): number;
}

/**
 * The probes: `/health` (the process is up) and `/ready` (it takes traffic: not draining, and its
 * store answers). Returns false for any other path. They come before the Host check: orchestrators
 * probe with the pod's own address as Host, and neither says anything of a tenant.
 */
export function createProbes(deps: ProbeDeps) {
  const { runtime, drain } = deps;
  return async (res: ServerResponse, url: URL): Promise<boolean> => {
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
    return false;
  };
}

/**
 * The OAuth protected-resource metadata, or false for another path. Behind the Host check: it
 * names the origin the Host header gives.
 */
export function answerMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  mcpPath: string,
  target: Target,
): boolean {
  if (!isResourceMetadataPath(url.pathname, mcpPath)) return false;
  const doc = resourceMetadata(publicOrigin(req), mcpPath, target);
  if (doc) json(res, 200, doc);
  else refuse(res, 404, 'not_found', 'No platform is configured, so there is no authorization server.');
  return true;
}
