import type { Toolset } from '../config.js';
import type { Credential } from '../credentials.js';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import type { HttpAuth } from './http-auth.js';
import type { SpendBudgets } from './http-budgets.js';
import { stateCodecFor } from './input.js';
import { fingerprint, keyTenant, RequestCredentials } from './request-credentials.js';
import { createMcpServer, type Registry } from './server.js';

export interface RemoteServerDeps {
  runtime: Runtime;
  registry: Registry;
  auth: HttpAuth;
  budgets: SpendBudgets;
}

export interface RemoteServerScope {
  credentials: readonly Credential[];
  toolsets?: Toolset[];
  /** A 2025 session: its id, and what to do when the platform refuses its key. */
  session?: { id: string; refused(): void };
}

/**
 * The MCP server one remote caller gets (per 2026 request, per 2025 session): its own credentials,
 * its key's files and jobs, and the spend budget of its key. Never the server's own
 * credentials, and only the caller's secrets are redacted from what it sees.
 */
export function createRemoteServerFactory(deps: RemoteServerDeps) {
  const { runtime, registry, auth, budgets } = deps;
  const stateCodec = stateCodecFor(runtime.stateKey);
  return ({ credentials, toolsets, session }: RemoteServerScope) => {
    const key = fingerprint(credentials[0]!);
    return createMcpServer({
      ...registry,
      config: runtime.config,
      client: runtime.client,
      credentials: new RequestCredentials(credentials, (refused) => {
        auth.keys.forget(refused);
        session?.refused();
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
    });
  };
}
