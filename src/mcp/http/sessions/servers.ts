import type { Server } from '@modelcontextprotocol/server';
import type { SpendBudgets } from '../../../budget/per-key.js';
import type { Toolset } from '../../../config.js';
import type { Credential } from '../../../credentials.js';
import type { Runtime } from '../../../runtime.js';
import { fingerprint, keyTenant } from '../../../tenant.js';
import { VERSION } from '../../../version.js';
import type { StampedCall } from '../../call-record.js';
import { stateCodecFor } from '../../input.js';
import { createMcpServer, type Registry, type ServerDeps } from '../../server.js';
import type { HttpAuth } from '../auth/bearer.js';
import type { RateLimiter } from '../auth/rate-limit.js';
import { RequestCredentials } from '../auth/request-credentials.js';

export interface RemoteServerDeps {
  runtime: Runtime;
  registry: Registry;
  auth: HttpAuth;
  budgets: SpendBudgets;
  /** The paid-call rate limit of each key. */
  limiter: RateLimiter;
  /** Where each tool call is recorded (`--audit-log`); none when it is off. */
  audit?: { call(record: StampedCall): void };
}

export interface RemoteServerScope {
  credentials: readonly Credential[];
  toolsets?: Toolset[];
  /** A 2025 session: its id, and where its calls' jobs go (linked to the calls, for a takeover). */
  session?: { id: string; jobRecorded?: ServerDeps['onJobRecorded'] };
  /**
   * The platform refused the caller's key (401): the key is forgotten as valid here, then this is
   * called (a session ends and tells the other replicas). The one path a refused key takes.
   */
  onUpstreamUnauthorized?: () => void;
}

/** The server of one caller (per 2026 request, per 2025 session). */
export type RemoteServerFactory = (scope: RemoteServerScope) => Server;

/**
 * The MCP server one remote caller gets (per 2026 request, per 2025 session): its own credentials,
 * its key's files and jobs, the spend budget and paid-call rate of its key, and its calls in the
 * audit log. Never the server's own
 * credentials, and only the caller's secrets are redacted from what it sees.
 */
export function createRemoteServerFactory(deps: RemoteServerDeps): RemoteServerFactory {
  const { runtime, registry, auth, budgets, limiter, audit } = deps;
  const stateCodec = stateCodecFor(runtime.stateKey);
  return ({ credentials, toolsets, session, onUpstreamUnauthorized }: RemoteServerScope) => {
    const key = fingerprint(credentials[0]!);
    return createMcpServer({
      ...registry,
      config: runtime.config,
      client: runtime.client,
      credentials: new RequestCredentials(credentials, (refused) => {
        auth.keys.forget(refused);
        onUpstreamUnauthorized?.();
      }),
      files: runtime.files,
      jobs: runtime.jobs,
      idempotency: runtime.idempotency,
      stateCodec,
      budget: budgets.forKey(key),
      trust: 'remote',
      // Files and jobs belong to the key: adding an admin credential does not change whose they are.
      tenant: keyTenant(credentials[0]!),
      secrets: credentials.map((credential) => credential.value),
      version: VERSION,
      toolsets,
      target: runtime.target,
      tracing: runtime.tracing,
      onJobRecorded: session?.jobRecorded,
      beforeSpend: () => limiter.paid(key),
      audit: audit && {
        tenant: key.slice(0, 12),
        replica: runtime.replicaId,
        write: (record) => audit.call(record),
      },
    });
  };
}
