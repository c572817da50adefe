import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuse } from '../../auth/refuse.js';
import type { Step } from '../chain.js';
import { describeBody } from '../log.js';
import { MAX_BODY_BYTES, readJson, TOO_LARGE } from '../request.js';

/** The capped JSON body of a POST; an oversized or broken one is answered here. `tools`: named in the log line. */
export function bodyStep(tools: ReadonlySet<string> | undefined): Step {
  return async (r) => {
    if (r.req.method !== 'POST') return false;
    const body = await readBody(r.req, r.res);
    if (body === HANDLED) return true;
    r.body = body;
    if (tools) Object.assign(r.facts, describeBody(body, tools));
    return false;
  };
}

const HANDLED = Symbol('answered');

async function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const body = await readJson(req);
  if (body === TOO_LARGE) {
    refuse(
      res,
      413,
      'too_large',
      `Request body over ${MAX_BODY_BYTES / 1_048_576} MB; pass large media as a URL instead of inline data.`,
      // Stop the upload: the connection closes once this answer is sent.
      { connection: 'close' },
    );
    return HANDLED;
  }
  if (body instanceof Error) {
    refuse(res, 400, 'parse_error', 'Parse error: the body is not valid JSON.');
    return HANDLED;
  }
  return body;
}
