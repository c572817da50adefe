import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Toolset } from '../../../config.js';
import type { Credential } from '../../../credentials.js';
import type { RequestFacts } from './log.js';

/** One request on its way through the steps, with what the steps before learned of it. */
export interface PendingRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Parsed only when the request is not for the endpoint's own path. */
  url: URL | undefined;
  facts: RequestFacts;
  /** The key first, then any management token or session sent for the admin tools. */
  credentials?: [Credential, ...Credential[]];
  toolsets?: Toolset[];
  body?: unknown;
}

/**
 * A step answers the request (true: done) or passes it on (false). What it learns (the
 * credentials, the toolsets, the body) it leaves on the request for the next.
 */
export type Step = (request: PendingRequest) => boolean | Promise<boolean>;

/**
 * The request path, top to bottom. A step that answers at once is not awaited: most of them, on
 * every call (a microtask per step is measurable per call: bench/NOTES.md).
 */
export function chain(steps: readonly Step[]): (request: PendingRequest) => Promise<void> {
  return async (request) => {
    for (const step of steps) {
      const done = step(request);
      if (done === true || (done !== false && (await done))) return;
    }
  };
}
