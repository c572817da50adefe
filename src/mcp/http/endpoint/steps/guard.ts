import { refuse } from '../../auth/refuse.js';
import type { Step } from '../chain.js';
import { hostAllowed, originAllowed } from '../request.js';

/** Host and Origin against DNS rebinding: this server's own names and port, and those the operator allowed. */
export function guardStep(port: () => number, allowedHosts: string[] | undefined): Step {
  // The verdict depends on the header values alone (the port and the allowed names are fixed once
  // listening): the last pair let through is remembered, so a client's every call is not parsed again.
  let passed: { host: string | undefined; origin: string | undefined } | undefined;
  return ({ req, res }) => {
    const { host, origin } = req.headers;
    if (passed && passed.host === host && passed.origin === origin) return false;
    if (hostAllowed(host, port(), allowedHosts) && originAllowed(origin, port(), allowedHosts)) {
      passed = { host, origin };
      return false;
    }
    refuse(res, 403, 'forbidden', 'Host or Origin not allowed (DNS rebinding protection).');
    return true;
  };
}
