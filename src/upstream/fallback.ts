import { NotFoundError } from '../errors.js';

/**
 * True when a 404 says the route itself is absent, so an older route of the spec may serve the
 * call instead; false for a 404 about the model (`model_not_found`), which no other route fixes.
 * Nothing was charged either way: the platform refused the request.
 */
export function routeMissing(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError && error.upstreamCode !== 'model_not_found';
}
