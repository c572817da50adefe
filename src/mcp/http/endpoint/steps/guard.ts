import type { Step } from '../chain.js';
import { refuse } from '../refuse.js';
import { hostAllowed, originAllowed } from '../request.js';

/** Host and Origin against DNS rebinding: this server's own names and port, and those the operator allowed. */
export function guardStep(port: () => number, allowedHosts: string[] | undefined): Step {
  return ({ req, res }) => {
    const { host, origin } = req.headers;
    if (hostAllowed(host, port(), allowedHosts) && originAllowed(origin, port(), allowedHosts)) return false;
    refuse(res, 403, 'forbidden', 'Host or Origin not allowed (DNS rebinding protection).');
    return true;
  };
}
