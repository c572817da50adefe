import type { Step } from '../chain.js';
import type { Drain } from '../drain.js';

/** While draining, a new request gets 503; until then every request is tracked, so a drain can wait for it. */
export function drainStep(drain: Drain): Step {
  return ({ req, res }) => {
    if (!drain.draining) {
      drain.track(req, res);
      return false;
    }
    drain.refuse(res);
    return true;
  };
}
