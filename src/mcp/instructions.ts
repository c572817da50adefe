import { ENV_PREFIX } from '../word.js';
import type { Target } from './define-tool.js';

/**
 * The server's `instructions`: clients that defer tools (Claude Code, Copilot past ~30 tools, the
 * tool search of the Claude and OpenAI APIs) put only tool names and this text in the model's
 * context, so it maps what people ask for to toolsets and first calls, in their words. The same
 * text goes out over stdio and HTTP, in `initialize` and in 2026-07-28's `server/discover`; at
 * most 350 tokens (test/e2e/protocol/instructions.test.ts).
 */
const MAP = `Tools by toolset (off by default: evals, keys, teams):
- models: find a model id (models_list), one model's price (models_get).
- text: ask any LLM (chat); count tokens first (tokens_count).
- search: web, news, facts online (web_search).
- data: scrape pages, maps and places, social profiles, emails, companies (data_endpoints, then data_call).
- media: draw or edit images (image_generate, image_edit); make videos (video_generate, video_extend, video_recent); read text aloud (speech_generate); music (music_generate); transcribe audio files or video links (transcribe, transcribe_video_links).
- embeddings: similarity search and ranking (embed).
- payments: pay per call without an account (x402_endpoints, x402_complete).
- account: sign in or out (auth_login, auth_logout, auth_status), money spent (usage_get), batches, settings.
- verify: enclave attestation and reply signatures (tee_attestation, tee_verify).
- evals: compare models on test questions (eval_run, evals_read, evals_write); keys: API keys; teams: members, invitations.
First calls: a model id: models_list with kind. What is spent or left: usage_get. A run that timed out: job_status with its run_id (videos: video_status).
Workflows across tools: skill://<name>/SKILL.md resources (narrated-clip, compare-models, pay-a-quote, eval-worst-items, long-video).`;

export function instructionsFor(target: Target): string {
  if (target.kind === 'sandbox')
    return `${MAP}\nRunning on the offline sandbox: replies are deterministic and free.`;
  if (target.kind === 'none')
    return `${MAP}\nNo platform configured: set ${ENV_PREFIX}BASE_URL and ${ENV_PREFIX}API_KEY, or restart with --sandbox.`;
  return MAP;
}
