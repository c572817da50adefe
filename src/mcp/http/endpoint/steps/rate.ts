import { fingerprint } from '../../../../tenant.js';
import type { HttpAuth } from '../../auth/bearer.js';
import type { RateLimiter } from '../../auth/rate-limit.js';
import type { Step } from '../chain.js';

/** Per key and per address, before the body is read: a flood costs a token check, not a parse. */
export function rateStep(limiter: RateLimiter, auth: HttpAuth): Step {
  if (!limiter.countsRequests) return () => false;
  return async (r) => !(await limiter.admit(r.res, fingerprint(r.credentials![0]), auth.address(r.req)));
}
