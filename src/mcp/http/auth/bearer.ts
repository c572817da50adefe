import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Target } from '../../../context.js';
import type { Credential } from '../../../credentials.js';
import type { Logger } from '../../../log.js';
import type { Store } from '../../../store/store.js';
import type { HttpClient } from '../../../upstream/client.js';
import { clientAddress } from './client-address.js';
import { KeyChecker } from './key-check.js';
import { refuse } from './refuse.js';
import { requestCredential, requestExtras } from './request-credentials.js';
import { publicOrigin, wwwAuthenticate } from './resource-metadata.js';

export type Vouched = { ok: true; credential: Credential; checked: boolean } | { ok: false };

/**
 * Who is calling the remote endpoint: the key of the request (or the sandbox's demo key), checked
 * with the platform the first time it is seen. Every refusal is answered here, the way an OAuth
 * client understands (RFC 6750), before any MCP work starts.
 */
export class HttpAuth {
  readonly keys: KeyChecker;

  constructor(
    private readonly target: Target,
    private readonly mcpPath: string,
    client: HttpClient,
    log: Logger,
    store?: Store,
    /** Proxies of the operator's own in front (`--trust-proxy`); 0 ignores X-Forwarded-For. */
    private readonly trustedHops = 0,
  ) {
    // With a shared store, a key one replica checked is known to all, and so is a refused one.
    this.keys = new KeyChecker(client, log, {}, store?.shared ? store : undefined);
  }

  /** Where the request comes from, for the per-address limits. */
  address(req: IncomingMessage): string {
    return clientAddress(req, this.trustedHops);
  }

  /**
   * The request's key first, then the management token and session it sent beside it (for the
   * admin tools); with no key, a 401 pointing to the authorization server.
   */
  credentials(req: IncomingMessage, res: ServerResponse): [Credential, ...Credential[]] | undefined {
    const credential = requestCredential(req, this.target);
    if (credential) return [credential, ...requestExtras(req)];
    refuse(
      res,
      401,
      'unauthorized',
      'Sign in with OAuth (see the resource_metadata in WWW-Authenticate) or send the platform API key as `Authorization: Bearer <key>` or `x-api-key`.',
      { 'www-authenticate': wwwAuthenticate(publicOrigin(req), this.mcpPath, this.target) },
    );
    return undefined;
  }

  /** Asks the platform about a key the first time it is seen; a refused key opens nothing. */
  async vouch(req: IncomingMessage, res: ServerResponse, credential: Credential): Promise<Vouched> {
    if (credential.source === 'sandbox') return { ok: true, credential, checked: true };
    const verdict = await this.keys.check(credential, this.address(req));
    if (verdict === 'throttled') {
      refuse(res, 429, 'too_many_requests', 'Too many refused keys from your address; wait a minute.', {
        'retry-after': '60',
      });
      return { ok: false };
    }
    if (verdict === 'refused') {
      this.invalidToken(
        req,
        res,
        'The platform does not accept this key. Sign in again, or send a valid key.',
      );
      return { ok: false };
    }
    return { ok: true, credential, checked: verdict === 'valid' };
  }

  /** RFC 6750: the client learns its key is bad, and an OAuth client signs in again. */
  invalidToken(req: IncomingMessage, res: ServerResponse, message: string): void {
    refuse(res, 401, 'invalid_token', message, {
      'www-authenticate': wwwAuthenticate(publicOrigin(req), this.mcpPath, this.target, 'invalid_token'),
    });
  }
}
