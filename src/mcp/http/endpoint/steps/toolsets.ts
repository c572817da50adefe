import { refuse } from '../../auth/refuse.js';
import type { Step } from '../chain.js';
import { parseToolsets } from '../request.js';

/** `?toolsets=` on the endpoint's address: the toolsets this caller's server shows. */
export const toolsetsStep: Step = (r) => {
  const toolsets = parseToolsets(r.url?.searchParams.get('toolsets') ?? null);
  if (toolsets instanceof Error) {
    refuse(r.res, 400, 'invalid_toolsets', toolsets.message);
    return true;
  }
  r.toolsets = toolsets;
  return false;
};
