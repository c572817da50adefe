/**
 * The platform's name as it appears in identifiers (headers, flags, env vars, URIs).
 * One constant, so a deployment against a platform with another word changes one line.
 * Keys the platform sends with its word in them are matched by pattern, never by this literal.
 */
export const PLATFORM_WORD = 'orbit';
export const ENV_PREFIX = `${PLATFORM_WORD.toUpperCase()}_`;
export const URI_SCHEME = PLATFORM_WORD;
