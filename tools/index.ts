import type { CatalogEntry, ToolLoader } from '../src/mcp/catalog.js';
import { ToolCatalog } from '../src/mcp/catalog.js';
import catalog from './catalog.json' with { type: 'json' };

/**
 * Every tool, in the order tools/list shows them. Adding a tool: one file and one line here, then
 * `npm run generate` (tools/catalog.json holds the listing so start-up imports no tool module).
 */
export const toolModules: Readonly<Record<string, ToolLoader>> = {
  models_list: () => import('./models/models_list.js'),
  models_get: () => import('./models/models_get.js'),
  chat: () => import('./text/chat.js'),
  tokens_count: () => import('./text/tokens_count.js'),
  web_search: () => import('./search/web_search.js'),
  data_endpoints: () => import('./data/data_endpoints.js'),
  data_call: () => import('./data/data_call.js'),
  image_generate: () => import('./media/image_generate.js'),
  image_edit: () => import('./media/image_edit.js'),
  video_generate: () => import('./media/video_generate.js'),
  video_status: () => import('./media/video_status.js'),
  video_extend: () => import('./media/video_extend.js'),
  video_recent: () => import('./media/video_recent.js'),
  speech_generate: () => import('./media/speech_generate.js'),
  music_generate: () => import('./media/music_generate.js'),
  transcribe: () => import('./media/transcribe.js'),
  transcribe_video_links: () => import('./media/transcribe_video_links.js'),
  job_status: () => import('./media/job_status.js'),
  embed: () => import('./embeddings/embed.js'),
  x402_endpoints: () => import('./payments/x402_endpoints.js'),
  x402_complete: () => import('./payments/x402_complete.js'),
  evals_read: () => import('./evals/evals_read.js'),
  evals_write: () => import('./evals/evals_write.js'),
  eval_run: () => import('./evals/eval_run.js'),
  auth_status: () => import('./account/auth_status.js'),
  auth_login: () => import('./account/auth_login.js'),
  auth_logout: () => import('./account/auth_logout.js'),
  usage_get: () => import('./account/usage_get.js'),
  batches_list: () => import('./account/batches_list.js'),
  batches_get: () => import('./account/batches_get.js'),
  settings_read: () => import('./account/settings_read.js'),
  settings_write: () => import('./account/settings_write.js'),
  api_keys_read: () => import('./keys/api_keys_read.js'),
  api_keys_write: () => import('./keys/api_keys_write.js'),
  teams_read: () => import('./teams/teams_read.js'),
  teams_write: () => import('./teams/teams_write.js'),
  tee_attestation: () => import('./verify/tee_attestation.js'),
  tee_verify: () => import('./verify/tee_verify.js'),
};

// Our own generated file, checked against the modules by test/meta.
export const toolCatalog = new ToolCatalog(catalog as unknown as CatalogEntry[], toolModules);
