/**
 * The platform's name as it appears in identifiers (headers, flags, env vars, URIs).
 * One constant, so a deployment against a platform with another word changes one line.
 * Keys the platform sends with its word in them are matched by pattern, never by this literal.
 */
export const PLATFORM_WORD = 'orbit';
export const ENV_PREFIX = `${PLATFORM_WORD.toUpperCase()}_`;
export const URI_SCHEME = PLATFORM_WORD;
/** The body flag that asks the platform to keep a chat's content in its evaluation traces (spec 2 §2.7). */
export const EVAL_STORE_CONTENT_FLAG = `${PLATFORM_WORD}_eval_store_content`;
