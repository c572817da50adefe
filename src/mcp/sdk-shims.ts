/**
 * The bin's stand-in for `@modelcontextprotocol/server/_shims` (scripts/build.ts aliases it): the
 * same exports as the SDK's Node shim, but the default JSON Schema validator is the SDK's own
 * cf-worker one, so Ajv (about 150 KB minified, a sixth of what start-up compiles) stays out of the
 * bundle. Every server of ours passes that validator explicitly anyway (server.ts).
 */

export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
