import { fingerprint } from '../../../../tenant.js';
import type { HttpAuth } from '../../auth/bearer.js';
import type { Step } from '../chain.js';

/** The caller's credentials (read in auth/), or a 401. `logged`: the request's log line names its tenant. */
export function credentialsStep(auth: HttpAuth, logged: boolean): Step {
  return (r) => {
    const credentials = auth.credentials(r.req, r.res);
    if (!credentials) return true;
    r.credentials = credentials;
    // The request's log line only: no hash or scan of the body when requests are not logged.
    if (logged) {
      r.facts.tenant = fingerprint(credentials[0]).slice(0, 12);
      r.facts.secrets = credentials.map((c) => c.value);
    }
    return false;
  };
}
