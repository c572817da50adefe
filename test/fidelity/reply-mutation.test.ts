import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reshape } from '../../src/sandbox/drift/reshape.js';
import {
  SANDBOX_PEOPLE as P,
  SANDBOX_KEY_PREFIX,
  type Sandbox,
  startSandbox,
  SANDBOX_MANAGEMENT_TOKENS as T,
} from '../../src/sandbox/index.js';
import { SESSION_COOKIE } from '../../src/upstream/outgoing.js';
import catalog from '../../tools/catalog.json' with { type: 'json' };
import { forgetDataCatalogs } from '../../tools/data/shared.js';
import { credentials } from '../helpers/accounts.js';
import { WEATHER } from '../helpers/chat.js';
import { type Harness, startHarness, textOf } from '../helpers/harness.js';
import { payQuote } from '../helpers/x402-wallet.js';

/**
 * Reply-mutation property test (issue 25 item 3): each case's platform reply is captured from the
 * sandbox, then mutated one way at a time (a field the spec does not show as always present left
 * out, an unknown field added, one list element spoiled, a number sent as a numeric string) through
 * the sandbox's reshape fault. The tool must still answer: the same kind of result, or one that
 * names what it left out; never a crash, never upstream_invalid (save for a `needed` field, the
 * whole answer of a reply the spec does not shape). Each run checks the mutated reply was read, and
 * a case's `prepare` makes what a run reads afresh (a job, a project; a cache forgotten). Seeds are
 * fixed, runs few. No key secret reaches any result. Every catalog tool has a case or a reason in
 * `NO_REPLY` (checked at the end): a new tool that reads a reply cannot go uncovered.
 */
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-mutation-'));

let sandbox: Sandbox;
let keyed: Harness;
let keyless: Harness;
/** The demo person with a key, a management token of every scope and a session (account routes). */
let signedIn: Harness;
beforeAll(async () => {
  // Jobs finish at once (a job read is captured complete), and polls come quickly.
  sandbox = await startSandbox({
    quiet: true,
    timing: {
      speechJobMs: 0,
      transcriptionJobMs: 0,
      videoQueueMs: 0,
      videoRenderMs: 0,
      evalQueueMs: 0,
      evalStepMs: 0,
      pollHintMs: 10,
    },
  });
  keyed = await startHarness({ sharedSandbox: sandbox, config: { toolsets: 'all' } });
  keyless = await startHarness({ sharedSandbox: sandbox, credentials: [], config: { toolsets: 'all' } });
  signedIn = await startHarness({
    sharedSandbox: sandbox,
    credentials: credentials({ key: P.demo.apiKey, token: T.all, session: P.demo.session }),
    config: { toolsets: 'all' },
  });
});
afterAll(async () => {
  await keyed.close();
  await keyless.close();
  await signedIn.close();
  await sandbox.close();
});

interface Case {
  tool: string;
  args: Record<string, unknown>;
  keyless?: boolean;
  /** Called by the signed-in harness (session, management token): the capture sends its headers. */
  signedIn?: boolean;
  /** The route whose reply is mutated, and how to capture it. */
  path: string;
  capture: {
    method: 'GET' | 'POST' | 'PATCH';
    query?: string;
    body?: unknown;
    headers?: Record<string, string>;
  };
  /** Fields the spec shows as always present (dotted, `*` for any element): never left out. */
  always: string[];
  /** Fields whose type the spec fixes (never sent as strings); `always` fields count too. */
  typed?: string[];
  /** Lists the spec requires whole (one element per input): an element is never spoiled. */
  whole?: string[];
  /**
   * Fields the tool's whole answer is (the spec shows no shape, and without them nothing usable is
   * left): left out, the tool may answer upstream_invalid; otherwise read like any other field.
   */
  needed?: string[];
  /** Lists read element by element: a spoiled element must be named in the answer ("not usable"). */
  named?: string[];
  /**
   * Lists whose element's `type` says what it is (content blocks, output items, tool calls): one of
   * a type this client does not know is kept out of the answer and named ("not shown").
   */
  blocks?: string[];
  /** Tells two cases of one tool and route apart in the test name. */
  label?: string;
  /**
   * Made afresh before the capture and before each run (a job to read, say): each value fills its
   * `{name}` in `args`, `path` and the capture's query.
   */
  prepare?: (h: Harness) => Promise<Record<string, string>>;
}

/** A 1x1 transparent PNG, sent inline as a data URL. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A text long enough that the sandbox answers speech with a job ticket. */
const LONG_TEXT = 'A long narration. '.repeat(20);

/** The capture of a session route: the demo person's cookie, no key. */
const BY_SESSION = { authorization: '', cookie: `${SESSION_COOKIE}=${P.demo.session}` };

/** Spec 1 §2.8 "Team (details)": none marked required; the list item's four fields are what a team is. */
const TEAM_ALWAYS = ['team', ...['uuid', 'name', 'status', 'role'].map((f) => `team.${f}`)];

const CASES: Case[] = [
  {
    tool: 'models_list',
    args: { kind: 'text' },
    path: '/api/v1/models',
    capture: { method: 'GET' },
    always: ['data', 'data.*.id'],
  },
  {
    tool: 'web_search',
    args: { query: 'orbital debris', limit: 3 },
    path: '/api/web',
    capture: { method: 'POST', body: { query: 'orbital debris', outputType: 'searchResults' } },
    always: [],
  },
  {
    tool: 'data_call',
    keyless: true,
    args: { endpoint: 'web.search', input: { query: 'orbital debris' } },
    path: '/api/v1/data/web/search',
    capture: { method: 'POST', body: { query: 'orbital debris' }, headers: { 'x-x402': 'true' } },
    // Spec 1 §7.3: the challenge is detected by `payment`; its id, expiry, amount and rails are what it is.
    always: ['payment', 'payment.paymentId', 'payment.expiresAt', 'payment.amountUsd', 'payment.accepted'],
  },
  {
    tool: 'data_endpoints',
    args: {},
    // The catalog is cached as its Cache-Control allows: forgotten, so each run reads the reply.
    prepare: async () => {
      forgetDataCatalogs();
      return {};
    },
    path: '/api/v1/data/endpoints',
    capture: { method: 'GET' },
    // Spec 1 §2.7: the catalog envelope and each entry's id.
    named: ['data'],
    always: ['data', 'data.*.id'],
  },
  {
    tool: 'x402_endpoints',
    args: {},
    path: '/api/v1/x402/endpoints',
    capture: { method: 'GET' },
    always: ['data'],
  },
  {
    tool: 'usage_get',
    args: {},
    path: '/api/subscription/v1/usage',
    capture: { method: 'GET' },
    always: [],
  },
  {
    tool: 'transcribe_video_links',
    args: { urls: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/abcdefghijk'] },
    path: '/api/youtube-transcribe',
    capture: {
      method: 'POST',
      body: { urls: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/abcdefghijk'] },
    },
    // Spec 2 §2.6: the per-link list and its summary.
    named: ['transcripts'],
    always: ['transcripts', 'transcripts.*.url', 'transcripts.*.success', 'summary'],
  },
  {
    tool: 'embed',
    args: { input: ['alpha', 'beta'], model: 'text-embedding-3-small' },
    path: '/api/v1/embeddings',
    capture: { method: 'POST', body: { input: ['alpha', 'beta'], model: 'text-embedding-3-small' } },
    // Spec 2 §4.10: `data[].embedding` by input index, one per input.
    always: ['data', 'data.*.embedding'],
    whole: ['data'],
  },
  {
    tool: 'batches_list',
    args: {},
    path: '/api/beta/batches',
    capture: { method: 'GET' },
    // Spec 1 §2.1: the page envelope and the item fields marked required.
    named: ['data'],
    always: [
      'object',
      'data',
      'has_more',
      ...[
        'id',
        'object',
        'endpoint',
        'model',
        'completion_window',
        'status',
        'created_at',
        'request_counts',
        'results',
      ].map((f) => `data.*.${f}`),
      'data.*.request_counts.total',
      'data.*.request_counts.completed',
      'data.*.request_counts.failed',
    ],
    typed: [
      'data.*.finalized_at',
      'data.*.usage.prompt_tokens',
      'data.*.usage.completion_tokens',
      'data.*.usage.total_tokens',
    ],
  },
  {
    tool: 'models_get',
    args: { id: 'openai/gpt-sandbox-mini' },
    path: '/api/models/openai%2Fgpt-sandbox-mini/providers',
    capture: { method: 'GET' },
    // Route named (spec 2 §4.2 "Provider discovery"), shape not shown: passed through as sent.
    always: [],
  },
  {
    tool: 'models_get',
    args: { id: 'openai/gpt-sandbox-mini' },
    path: '/api/v1/models',
    capture: { method: 'GET', query: '?detailed=true' },
    // Spec 2 §2.1: the catalog envelope and each model's id.
    always: ['data', 'data.*.id'],
  },
  {
    tool: 'chat',
    args: { model: 'openai/gpt-sandbox', prompt: 'Say hello', format: 'chat', stream: false },
    path: '/api/v1/chat/completions',
    capture: {
      method: 'POST',
      body: {
        model: 'openai/gpt-sandbox',
        messages: [{ role: 'user', content: 'Say hello' }],
        stream: false,
      },
    },
    // Spec 2 §4.2: "common chat-completions format", whose answer is `choices[].message`.
    always: ['choices', 'choices.*.message'],
  },
  {
    tool: 'chat',
    label: 'tool calls',
    args: {
      model: 'openai/gpt-sandbox',
      prompt: 'Use the get_weather tool for Paris',
      tools: [WEATHER],
      stream: false,
    },
    path: '/api/v1/chat/completions',
    capture: {
      method: 'POST',
      body: {
        model: 'openai/gpt-sandbox',
        messages: [{ role: 'user', content: 'Use the get_weather tool for Paris' }],
        tools: [{ type: 'function', function: WEATHER }],
        stream: false,
      },
    },
    // As the chat format above; a tool call is what the caller answers, by its id.
    named: ['choices.*.message.tool_calls'],
    blocks: ['choices.*.message.tool_calls'],
    always: ['choices', 'choices.*.message'],
  },
  {
    tool: 'chat',
    label: 'messages format',
    args: { model: 'openai/gpt-sandbox', prompt: 'Say hello', format: 'messages', stream: false },
    path: '/api/v1/messages',
    capture: {
      method: 'POST',
      body: {
        model: 'openai/gpt-sandbox',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Say hello' }],
      },
    },
    // Spec 2 §4.1 lists the content blocks, not the reply: its blocks are read one by one.
    named: ['content'],
    blocks: ['content'],
    always: [],
  },
  {
    tool: 'chat',
    label: 'responses format',
    args: { model: 'openai/gpt-sandbox', prompt: 'Say hello', format: 'responses', stream: false },
    path: '/api/v1/responses',
    capture: { method: 'POST', body: { model: 'openai/gpt-sandbox', input: 'Say hello' } },
    // Spec 2 §4.2: responses, "the response: not shown"; its output items and their parts are read one by one.
    named: ['output', 'output.*.content'],
    blocks: ['output', 'output.*.content'],
    always: [],
  },
  {
    tool: 'tokens_count',
    args: { model: 'anthropic/claude-sandbox', prompt: 'count these words please' },
    path: '/api/v1/messages/count_tokens',
    capture: {
      method: 'POST',
      body: {
        model: 'anthropic/claude-sandbox',
        messages: [{ role: 'user', content: 'count these words please' }],
      },
    },
    // Spec 2 §4.1: route exists, reply "not shown"; the count is the whole answer.
    always: [],
    needed: ['input_tokens'],
  },
  {
    tool: 'image_generate',
    args: { model: 'pixel-lite', prompt: 'a red fox', resolution: '512x512', n: 2 },
    path: '/api/v1/images',
    capture: {
      method: 'POST',
      body: { model: 'pixel-lite', prompt: 'a red fox', resolution: '512x512', n: 2 },
    },
    // Spec 2 §4.4a: reply "not shown"; GAPS: like the compatible route, `{created, data: [...]}`.
    named: ['data'],
    always: [],
    needed: ['data'],
  },
  {
    tool: 'speech_generate',
    args: { text: 'A short line.', model: 'tts-studio' },
    path: '/api/tts',
    capture: { method: 'POST', body: { text: 'A short line.', model: 'tts-studio' } },
    // Spec 2 §4.7: one reply form is "JSON with `audioUrl`"; without it there is no audio.
    always: [],
    needed: ['audioUrl'],
  },
  {
    tool: 'speech_generate',
    label: 'job ticket',
    args: { text: LONG_TEXT, model: 'tts-studio', max_wait_s: 0 },
    path: '/api/tts',
    capture: { method: 'POST', body: { text: LONG_TEXT, model: 'tts-studio' } },
    // Spec 2 §2.5: the async ticket is `runId`, `model`, `status`; the run id is what it is.
    always: ['runId'],
  },
  {
    tool: 'video_status',
    args: { run_id: '{run_id}', max_wait_s: 2 },
    prepare: (h) =>
      runIdOf(h, 'video_generate', { model: 'sandbox/video-lite', prompt: 'a comet', wait: false }),
    path: '/api/video/status',
    capture: { method: 'GET', query: '?requestId={run_id}' },
    // GAPS.md "Video status": two shapes, the flat `{requestId, status, ...}` and the nested
    // `{requestId, model, data: {status, ...}}`; `status` is what each is.
    always: ['status', 'data', 'data.status'],
  },
  {
    tool: 'job_status',
    args: { run_id: '{run_id}', max_wait_s: 2 },
    prepare: (h) => runIdOf(h, 'speech_generate', { text: LONG_TEXT, model: 'tts-studio', max_wait_s: 0 }),
    path: '/api/tts/status',
    capture: { method: 'GET', query: '?runId={run_id}&model=tts-studio' },
    // Spec 2 §2.5: the status reply is `status`, "completed with `audioUrl`".
    always: ['status', 'audioUrl'],
  },
  {
    tool: 'evals_read',
    args: { operation: 'projects.list' },
    // A project more each run: the list always has two or more to spoil one of.
    prepare: async (h) => {
      await h.call('evals_write', { operation: 'projects.create', name: 'Capitals' });
      await h.call('evals_write', { operation: 'projects.create', name: 'Rivers' });
      return {};
    },
    path: '/api/v1/evals/projects',
    capture: { method: 'GET' },
    // Spec 2 §4.11: the list is `{object: list, data}`; §2.7: a project is its `id`.
    named: ['data'],
    always: ['object', 'data', 'data.*.id'],
  },
  {
    tool: 'teams_read',
    args: { operation: 'list' },
    signedIn: true,
    path: '/api/teams',
    capture: { method: 'GET', headers: BY_SESSION },
    // Spec 1 §2 "Team list item: `uuid`, `name`, `status`, `role`"; §4.6: the list is `{teams}`.
    named: ['teams'],
    always: ['teams', ...['uuid', 'name', 'status', 'role'].map((f) => `teams.*.${f}`)],
  },
  {
    tool: 'api_keys_read',
    args: { operation: 'list' },
    signedIn: true,
    path: '/api/management/v1/api-keys',
    capture: { method: 'GET', headers: { authorization: `Bearer ${T.keysRead}` } },
    // Spec 1 §4.5: the route is named, its bodies "not shown"; a list without keys has nothing.
    named: ['data'],
    always: [],
    needed: ['data'],
  },
  {
    tool: 'settings_read',
    label: 'retention',
    args: { operation: 'retention' },
    signedIn: true,
    path: '/api/user/responses-retention',
    capture: { method: 'GET', headers: BY_SESSION },
    // Spec 1 §4.6: `{responsesRetentionDays}`.
    always: ['responsesRetentionDays'],
  },
  {
    tool: 'settings_read',
    label: 'referral link',
    args: { operation: 'referral_link' },
    signedIn: true,
    path: '/api/subscription/referral-link',
    capture: { method: 'GET', headers: BY_SESSION },
    // Spec 1 §4.6: `{code, url}`.
    always: ['code', 'url'],
  },
  {
    tool: 'tee_attestation',
    args: { model: 'TEE/llama-sandbox' },
    path: '/api/v1/tee/attestation',
    capture: { method: 'GET', query: `?model=TEE/llama-sandbox&nonce=${'ab'.repeat(32)}` },
    // Spec 2 §4.12: the reply echoes `nonce` and has the GPU payload, the CPU quote and
    // `signing_address`. A drop elsewhere may fail a check (the verdict says which), never the call.
    always: ['nonce', 'nvidia_payload', 'intel_quote', 'signing_address'],
  },
  {
    tool: 'batches_get',
    args: { id: '{id}' },
    prepare: async (h) => {
      const listed = await h.call('batches_list', { status: ['completed'], limit: 1 });
      const id = (listed.structuredContent as { batches?: Array<{ id: string }> }).batches?.[0]?.id;
      if (!id) throw new Error(`no completed batch: ${textOf(listed)}`);
      return { id };
    },
    path: '/api/beta/batches/{id}',
    capture: { method: 'GET' },
    // Spec 1 §2.1: the batch fields marked required; its `results` items are "not shown".
    named: ['results'],
    always: [
      ...['id', 'object', 'endpoint', 'model', 'completion_window', 'status', 'created_at', 'request_counts'],
      'results',
      'request_counts.total',
      'request_counts.completed',
      'request_counts.failed',
    ],
    typed: ['finalized_at', 'usage.prompt_tokens', 'usage.completion_tokens', 'usage.total_tokens'],
  },
  {
    tool: 'video_generate',
    label: 'submit',
    args: { model: 'sandbox/video-lite', prompt: 'a comet', wait: false },
    path: '/api/generate-video',
    capture: { method: 'POST', body: { model: 'sandbox/video-lite', prompt: 'a comet' } },
    // Spec 2 §2.4: the accepted reply lists `runId` and `id` (same value), `status`, `model`, `cost`...;
    // either id is the run, so neither alone is always present.
    always: [],
  },
  {
    tool: 'video_recent',
    args: {},
    // Two runs more each time: the list always has two or more to spoil one of.
    prepare: async (h) => {
      await runIdOf(h, 'video_generate', { model: 'sandbox/video-lite', prompt: 'a comet', wait: false });
      await runIdOf(h, 'video_generate', { model: 'sandbox/video-lite', prompt: 'a moon', wait: false });
      return {};
    },
    path: '/api/generate-video/recover',
    capture: { method: 'GET' },
    // Spec 2 §4.6: the route is named ("recent runs for the user"), its reply not shown.
    named: ['runs'],
    always: [],
  },
  {
    tool: 'transcribe',
    label: 'sync',
    args: { url: 'https://example.com/talk.mp3', model: 'whisper-sandbox' },
    path: '/api/transcribe',
    capture: { method: 'POST', body: { audioUrl: 'https://example.com/talk.mp3', model: 'whisper-sandbox' } },
    // Spec 2 §2.5: the sync reply is `transcription` and `metadata` (`cost`, `chargedDuration`,
    // `language`); without the transcription there is nothing to answer.
    always: [],
    needed: ['transcription'],
  },
  {
    tool: 'transcribe',
    label: 'job ticket',
    args: { url: 'https://example.com/talk.mp3', model: 'scribe-async', max_wait_s: 0 },
    path: '/api/transcribe',
    capture: { method: 'POST', body: { audioUrl: 'https://example.com/talk.mp3', model: 'scribe-async' } },
    // Spec 2 §2.5: the async ticket; its `runId` is what it is.
    always: ['runId'],
  },
  {
    tool: 'transcribe',
    label: 'job done',
    args: { url: 'https://example.com/talk.mp3', model: 'scribe-async', diarize: true, max_wait_s: 5 },
    prepare: (h) =>
      runIdOf(h, 'transcribe', { url: 'https://example.com/talk.mp3', model: 'scribe-async', max_wait_s: 0 }),
    path: '/api/transcribe/status',
    capture: { method: 'POST', body: { runId: '{run_id}' } },
    // Spec 2 §2.5: the status reply is `status`; completed it has the transcription, and with
    // diarization `diarization.segments[]` and `words[]`.
    named: ['words', 'diarization.segments'],
    always: ['status'],
    needed: ['transcription'],
  },
  {
    tool: 'image_edit',
    args: { prompt: 'make it night', images: [PIXEL], n: 2 },
    path: '/api/v1/images/edits',
    capture: { method: 'POST', body: { prompt: 'make it night', imageDataUrl: PIXEL, n: 2 } },
    // Spec 2 §4.4a: reply "not shown"; read like image_generate's (`{data: [...]}`).
    named: ['data'],
    always: [],
    needed: ['data'],
  },
  {
    tool: 'eval_run',
    label: 'experiment',
    args: {
      rows: [{ input: 'What is the capital of France?', expected_output: 'Paris' }],
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
      scorers: ['contains'],
      max_wait_s: 2,
    },
    // An experiment each run: the key's experiments-per-minute window is emptied first.
    prepare: async () => {
      forgetEvalRuns();
      return {};
    },
    path: '/api/v1/evals/experiments',
    capture: {
      method: 'POST',
      body: {
        items: [{ input: 'What is the capital of France?', expected_output: 'Paris' }],
        candidates: [{ id: 'c1', name: 'openai/gpt-sandbox-mini', model: 'openai/gpt-sandbox-mini' }],
        scorer_ids: ['contains'],
      },
    },
    // Spec 2 §2.7: the experiment's fields are listed, none marked required; `id` and `status` are
    // what it is (§2.7 "a new experiment returns `queued` or `in_progress`").
    always: ['id', 'status'],
  },
  {
    tool: 'x402_complete',
    label: 'replayed reply',
    keyless: true,
    args: { quote_id: '{quote_id}' },
    // A web_search quote, paid by the sandbox wallet: the run replays the search with the proof.
    prepare: async (h) => {
      const quoted = await h.call('web_search', { query: 'reusable rockets', limit: 2 });
      const id = (quoted.structuredContent as { payment?: { quote_id?: string } }).payment?.quote_id;
      if (!id) throw new Error(`no quote: ${textOf(quoted)}`);
      await payQuote(sandbox.url, id, 'nano');
      return { quote_id: id };
    },
    path: '/api/web',
    // The replayed reply is the route's paid reply: captured with a key.
    capture: {
      method: 'POST',
      body: { query: 'reusable rockets', outputType: 'searchResults' },
      headers: { authorization: `Bearer ${P.demo.apiKey}` },
    },
    always: [],
  },
  {
    tool: 'evals_read',
    label: 'datasets',
    args: { operation: 'datasets.list' },
    // A dataset more each run: the list always has two or more to spoil one of.
    prepare: async (h) => {
      await h.call('evals_write', {
        operation: 'datasets.create',
        name: 'Capitals',
        rows: [{ input: 'France' }],
      });
      await h.call('evals_write', {
        operation: 'datasets.create',
        name: 'Rivers',
        rows: [{ input: 'Nile' }],
      });
      return {};
    },
    path: '/api/v1/evals/datasets',
    capture: { method: 'GET' },
    // Spec 2 §4.11: a list is `{object: list, data}`; a dataset's own fields are not in §2.7's table.
    named: ['data'],
    always: ['object', 'data', 'data.*.id'],
  },
  {
    tool: 'evals_read',
    label: 'dataset',
    args: { operation: 'datasets.get', id: '{id}' },
    prepare: async (h) => {
      const id = await datasetOf(h, [{ input: 'France', expected_output: 'Paris' }, { input: 'Peru' }]);
      return { id };
    },
    path: '/api/v1/evals/datasets/{id}',
    capture: { method: 'GET' },
    always: ['id'],
  },
  {
    tool: 'evals_read',
    label: 'experiment',
    args: { operation: 'experiments.get', id: '{id}' },
    prepare: async (h) => {
      forgetEvalRuns();
      const run = await h.call('eval_run', {
        rows: [{ input: 'What is the capital of France?', expected_output: 'Paris' }],
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorers: ['contains'],
        max_wait_s: 0,
      });
      const id = (run.structuredContent as { experiment_id?: string } | undefined)?.experiment_id;
      if (!id) throw new Error(`no experiment: ${textOf(run)}`);
      return { id };
    },
    path: '/api/v1/evals/experiments/{id}',
    capture: { method: 'GET' },
    // Spec 2 §2.7: the experiment's fields listed, none marked required; `id` and `status` are what it is.
    always: ['id', 'status'],
  },
  {
    tool: 'teams_read',
    label: 'get',
    args: { operation: 'get', team: '{team}' },
    signedIn: true,
    prepare: teamOf,
    path: '/api/teams/{team}',
    capture: { method: 'GET', headers: BY_SESSION },
    // Spec 1 §2 "Team (details)": the list item's four fields and more, none marked required; the
    // four are what a team is. `responses_retention_days` is "0..365 or null".
    always: TEAM_ALWAYS,
    typed: ['team.responses_retention_days'],
  },
  {
    tool: 'teams_read',
    label: 'members',
    args: { operation: 'members', team: '{team}' },
    signedIn: true,
    prepare: teamOf,
    path: '/api/teams/{team}/members',
    capture: { method: 'GET', headers: BY_SESSION },
    // Spec 1 §4.6: `{members, pagination: {page, limit, total, totalPages}}`; §2: a member's
    // `sessionId` is an integer (what the member is).
    named: ['members'],
    always: [
      'members',
      'members.*.sessionId',
      'pagination',
      ...['page', 'limit', 'total', 'totalPages'].map((f) => `pagination.${f}`),
    ],
  },
  {
    tool: 'api_keys_read',
    label: 'get',
    args: { operation: 'get', id: '{id}' },
    signedIn: true,
    prepare: async (h) => {
      const listed = await h.call('api_keys_read', { operation: 'list' });
      const id = (listed.structuredContent as { data?: Array<{ id?: string }> } | undefined)?.data?.[0]?.id;
      if (!id) throw new Error(`no key: ${textOf(listed)}`);
      return { id };
    },
    path: '/api/management/v1/api-keys/{id}',
    capture: { method: 'GET', headers: { authorization: `Bearer ${T.keysRead}` } },
    // Spec 1 §4.5: the route is named, its bodies "not shown"; a key is its `id`, the whole answer.
    always: [],
    needed: ['id'],
  },
  {
    tool: 'video_extend',
    args: { run_id: '{run_id}', index: 0, max_wait_s: 2 },
    // A finished run of the extendable model each time (jobs finish at once); the per-minute
    // windows of the video routes emptied first.
    prepare: (h) => {
      sandbox.state.collection('media.rate').clear();
      return runIdOf(h, 'video_generate', { model: 'sandbox/video-pro', prompt: 'a river', wait: false });
    },
    path: '/api/generate-video/extend',
    capture: { method: 'POST', body: { runId: '{run_id}', index: 0 } },
    // Spec 2 §2.4: the accepted reply as the submit's; either `runId` or `id` is the run.
    always: [],
  },
  {
    tool: 'evals_read',
    label: 'dataset versions',
    args: { operation: 'datasets.versions', id: '{id}' },
    // A dataset frozen twice: two versions to spoil one of.
    prepare: async (h) => {
      const id = await datasetOf(h, [{ input: 'France', expected_output: 'Paris' }]);
      for (const _ of [1, 2]) {
        const frozen = await h.call('evals_write', { operation: 'datasets.freeze', id });
        if (frozen.isError) throw new Error(`not frozen: ${textOf(frozen)}`);
      }
      return { id };
    },
    path: '/api/v1/evals/datasets/{id}/versions',
    capture: { method: 'GET' },
    // Spec 2 §4.11: a list is `{object: list, data}`; §2.7: a version's `version` is an integer.
    named: ['data'],
    always: ['object', 'data', 'data.*.id', 'data.*.version'],
  },
  {
    tool: 'evals_read',
    label: 'project',
    args: { operation: 'projects.get', id: '{id}' },
    prepare: async (h) => ({
      id: idOf(await h.call('evals_write', { operation: 'projects.create', name: 'Moons' })),
    }),
    path: '/api/v1/evals/projects/{id}',
    capture: { method: 'GET' },
    // Spec 2 §2.7 lists a project's fields without marking any required: `id` is what it is.
    always: ['id'],
  },
  {
    tool: 'evals_read',
    label: 'scorers',
    args: { operation: 'scorers.list' },
    path: '/api/v1/evals/scorers',
    capture: { method: 'GET' },
    // Spec 2 §4.11: a list is `{object: list, data}` ("includes built-in, legacy and versioned
    // scorers"); §2.7 marks none of a scorer's fields required: `id` is what it is.
    named: ['data'],
    always: ['object', 'data', 'data.*.id'],
  },
  {
    tool: 'evals_read',
    label: 'scorer',
    args: { operation: 'scorers.get', id: 'contains' },
    path: '/api/v1/evals/scorers/contains',
    capture: { method: 'GET' },
    // Spec 2 §4.11 "GET latest version"; §2.7: `id` is what a scorer is.
    always: ['id'],
  },
  {
    tool: 'evals_read',
    label: 'output items',
    args: { operation: 'experiments.output_items', id: '{id}' },
    // One finished experiment (two rows, two scorers) read each run: reading it changes nothing.
    prepare: () => (finishedExperiment ??= finishExperiment()),
    path: '/api/v1/evals/experiments/{id}/output_items',
    capture: { method: 'GET', query: '?limit=20' },
    // Spec 2 §4.11 names the route ("output items"), not its shape: the items are the whole answer.
    named: ['data'],
    always: [],
    needed: ['data'],
  },
  {
    tool: 'evals_write',
    label: 'project',
    args: { operation: 'projects.create', name: 'Moons' },
    path: '/api/v1/evals/projects',
    capture: { method: 'POST', body: { name: 'Moons' } },
    // Spec 2 §2.7: a project's fields, none marked required; `id` is what it is.
    always: ['id'],
  },
  {
    tool: 'evals_write',
    label: 'dataset',
    args: { operation: 'datasets.create', name: 'Capitals', rows: [{ input: 'France' }, { input: 'Peru' }] },
    path: '/api/v1/evals/datasets',
    capture: { method: 'POST', body: { name: 'Capitals', items: [{ input: 'France' }, { input: 'Peru' }] } },
    // A dataset's own fields are not in spec 2 §2.7's table: `id` is what it is.
    always: ['id'],
  },
  {
    tool: 'evals_write',
    label: 'scorer',
    args: { operation: 'scorers.create', id: 'mutation_contains', scorer_type: 'contains' },
    path: '/api/v1/evals/scorers',
    capture: { method: 'POST', body: { id: 'mutation_contains', scorer_type: 'contains' } },
    // Spec 2 §2.7: a scorer's fields, none marked required; `id` is what it is.
    always: ['id'],
  },
  {
    tool: 'settings_write',
    label: 'retention',
    args: { operation: 'retention', retention_days: 30 },
    signedIn: true,
    path: '/api/user/responses-retention',
    capture: {
      method: 'POST',
      body: { responsesRetentionDays: 30 },
      headers: BY_SESSION,
    },
    // Spec 1 §4.6: the reply is "stored per session", its shape not shown.
    always: [],
  },
  {
    tool: 'settings_write',
    label: 'default team',
    args: { operation: 'default_team', team: '{team}' },
    signedIn: true,
    prepare: teamOf,
    path: '/api/user/default-team',
    capture: {
      method: 'PATCH',
      body: { team_uuid: '{team}' },
      headers: BY_SESSION,
    },
    // Spec 1 §4.6: `{ok, metadata: {default_team_uuid}}`.
    always: ['ok', 'metadata', 'metadata.default_team_uuid'],
  },
  {
    tool: 'api_keys_write',
    label: 'create',
    args: { operation: 'create', name: '{name}' },
    signedIn: true,
    // A fresh name each run: the same create twice would be replayed, not made.
    prepare: async () => ({ name: `mutation ${++made}` }),
    path: '/api/management/v1/api-keys',
    capture: {
      method: 'POST',
      body: { name: '{name}' },
      headers: { authorization: `Bearer ${T.all}`, 'idempotency-key': '{name}' },
    },
    // Spec 1 §4.3: the bodies are "not shown"; the creation reply carries the secret, `key`, which
    // is what a create is for. The secret never reaches the result (checked for every case).
    always: [],
    needed: ['key'],
  },
  {
    tool: 'teams_write',
    label: 'create',
    args: { operation: 'create', name: '{name}' },
    signedIn: true,
    // A fresh name each run: a second team of one name is a conflict (spec 1 §4.6).
    prepare: async () => ({ name: `Mutation ${++made}` }),
    path: '/api/teams',
    capture: {
      method: 'POST',
      body: { name: '{name}' },
      headers: BY_SESSION,
    },
    // Spec 1 §4.6: `{team}`; §2.8 as for teams_read get.
    always: TEAM_ALWAYS,
    typed: ['team.responses_retention_days'],
  },
  {
    tool: 'teams_write',
    label: 'invite',
    args: { operation: 'invite', team: '{team}', email: '{email}' },
    signedIn: true,
    prepare: async (h) => ({ ...(await teamOf(h)), email: `guest${++made}@example.com` }),
    path: '/api/teams/{team}/invitations',
    capture: {
      method: 'POST',
      body: { email: '{email}', role: 'member' },
      headers: BY_SESSION,
    },
    // Spec 1 §4.6: `{invitation}`; §2.8 lists its fields, none marked required: `id` is what it is.
    always: ['invitation', 'invitation.id'],
  },
  {
    tool: 'evals_write',
    label: 'freeze',
    args: { operation: 'datasets.freeze', id: '{id}' },
    prepare: async (h) => ({ id: await datasetOf(h, [{ input: 'France' }, { input: 'Peru' }]) }),
    path: '/api/v1/evals/datasets/{id}/versions',
    capture: { method: 'POST' },
    // Spec 2 §2.7: a version's `version` is an integer; `id` is what it is.
    always: ['id', 'version'],
  },
  {
    tool: 'api_keys_write',
    label: 'update',
    args: { operation: 'update', id: '{id}', daily_request_limit: 100 },
    signedIn: true,
    // A key of its own each run (never the demo key the other cases spend with).
    prepare: async (h) => {
      const created = await h.call('api_keys_write', { operation: 'create', name: `mutation ${++made}` });
      const id = (created.structuredContent as { data?: { key?: { id?: string } } } | undefined)?.data?.key
        ?.id;
      if (!id) throw new Error(`no key: ${textOf(created)}`);
      return { id };
    },
    path: '/api/management/v1/api-keys/{id}',
    capture: {
      method: 'PATCH',
      body: { daily_request_limit: 100 },
      headers: { authorization: `Bearer ${T.all}` },
    },
    // Spec 1 §4.3: the bodies are "not shown"; a key is its `id`, the whole answer.
    always: [],
    needed: ['id'],
  },
  {
    tool: 'teams_write',
    label: 'update',
    args: { operation: 'update', team: '{team}', name: '{name}' },
    signedIn: true,
    // A team of the demo person's own, renamed each run.
    prepare: async (h) => {
      const created = await h.call('teams_write', { operation: 'create', name: `Renamed ${++made}` });
      const team = (created.structuredContent as { data?: { uuid?: string } } | undefined)?.data?.uuid;
      if (!team) throw new Error(`no team: ${textOf(created)}`);
      return { team, name: `Renamed ${++made}` };
    },
    path: '/api/teams/{team}',
    capture: {
      method: 'PATCH',
      body: { name: '{name}' },
      headers: BY_SESSION,
    },
    // Spec 1 §4.6: `{team}`; §2.8 as for teams_read get.
    always: TEAM_ALWAYS,
    typed: ['team.responses_retention_days'],
  },
  {
    tool: 'tee_verify',
    args: { request_id: '{request_id}', model: 'TEE/llama-sandbox' },
    // A fresh enclave reply each run: its signature is what is read.
    prepare: async (h) => {
      const chat = await h.call('chat', {
        model: 'TEE/llama-sandbox',
        prompt: 'A private question',
        stream: false,
      });
      const id = (chat.structuredContent as { request_id?: string } | undefined)?.request_id;
      if (!id) throw new Error(`no request id: ${textOf(chat)}`);
      return { request_id: id };
    },
    path: '/api/v1/tee/signature/{request_id}',
    capture: { method: 'GET', query: '?model=TEE/llama-sandbox&signing_algo=ecdsa' },
    // Spec 2 §4.12: the reply has `text`, `signature`, `signing_address`. A drop elsewhere may
    // fail a check (the verdict says which), never the call.
    always: ['text', 'signature', 'signing_address'],
  },
];

/**
 * The catalog's tools that have no case here, each with why. `local` ones call no platform route
 * (the catalog says so: openWorldHint false); the others' replies are tested elsewhere.
 */
const NO_REPLY: Record<string, { local?: true; why: string }> = {
  auth_status: { local: true, why: 'reports the credentials this server holds; calls no route' },
  auth_logout: {
    local: true,
    why: 'forgets stored credentials; the platform has no revocation route (spec 1 §4.2)',
  },
  auth_login: {
    why: 'its reply is the OAuth key exchange, read before the tool runs: every mutation in test/fidelity/auth-exchange.test.ts',
  },
  music_generate: {
    why: 'its reply is audio bytes (spec 2 §4.7), no JSON to mutate: a reply that is not audio in test/fidelity/music-reply.test.ts',
  },
};

/** A counter for names that must differ from run to run. */
let made = 0;

/** The id in a tool's `{operation, data: {id}}` result. */
function idOf(result: Awaited<ReturnType<Harness['call']>>): string {
  const id = (result.structuredContent as { data?: { id?: unknown } } | undefined)?.data?.id;
  if (typeof id !== 'string') throw new Error(`no id: ${textOf(result)}`);
  return id;
}

/** A new dataset of these rows: its id. */
const datasetOf = async (h: Harness, rows: Array<Record<string, string>>): Promise<string> =>
  idOf(await h.call('evals_write', { operation: 'datasets.create', name: 'Capitals', rows }));

let finishedExperiment: Promise<Record<string, string>> | undefined;
/** An experiment run to its end by the keyed harness (the sandbox's eval steps take no time). */
async function finishExperiment(): Promise<Record<string, string>> {
  forgetEvalRuns();
  const run = await keyed.call('eval_run', {
    rows: [
      { input: 'What is the capital of France?', expected_output: 'Paris' },
      { input: 'What is the capital of Peru?', expected_output: 'Lima' },
    ],
    candidates: [{ model: 'openai/gpt-sandbox-mini' }],
    scorers: ['contains', 'exact_match'],
    max_wait_s: 5,
  });
  const o = run.structuredContent as { experiment_id?: string; status?: string } | undefined;
  if (!o?.experiment_id || o.status !== 'completed') throw new Error(`not finished: ${textOf(run)}`);
  return { id: o.experiment_id };
}

/** The demo person's first team (its uuid), for the team-reading cases. */
async function teamOf(h: Harness): Promise<Record<string, string>> {
  const listed = await h.call('teams_read', { operation: 'list' });
  const team = (listed.structuredContent as { data?: Array<{ uuid?: string }> } | undefined)?.data?.[0]?.uuid;
  if (!team) throw new Error(`no team: ${textOf(listed)}`);
  return { team };
}

/** The sandbox's experiments-per-minute windows emptied: a case may start an experiment each run. */
const forgetEvalRuns = () => sandbox.state.collection('evals.rate').clear();

/** A job started by a tool without waiting: its run id, for the job-reading cases. */
async function runIdOf(
  h: Harness,
  tool: string,
  args: Record<string, unknown>,
): Promise<Record<string, string>> {
  const result = await h.call(tool, args);
  const runId = (result.structuredContent as { run_id?: unknown } | undefined)?.run_id;
  if (typeof runId !== 'string') throw new Error(`${tool} gave no run id: ${textOf(result)}`);
  return { run_id: runId };
}

/** The case with `{name}` filled from the prepared values. */
function filled(c: Case, values: Record<string, string>): Case {
  let json = JSON.stringify({ ...c, prepare: undefined });
  for (const [name, value] of Object.entries(values)) json = json.replaceAll(`{${name}}`, value);
  return { ...(JSON.parse(json) as Case), prepare: c.prepare };
}

async function capture(c: Case): Promise<unknown> {
  const res = await fetch(`${sandbox.url}${c.path}${c.capture.query ?? ''}`, {
    method: c.capture.method,
    headers: {
      'content-type': 'application/json',
      ...(c.keyless ? {} : { authorization: `Bearer ${sandbox.demoKey}` }),
      ...c.capture.headers,
    },
    ...(c.capture.body ? { body: JSON.stringify(c.capture.body) } : {}),
  });
  return res.json();
}

/**
 * One way a reply differs. The first four since issue 25; issue 32 adds `null` (a field the spec
 * does not show as always present sent as null, which is "not sent") and `unknown` (an element of a
 * type this client does not know appended to a list of typed elements, as new block types appear).
 */
type Mutation = {
  kind: 'drop' | 'add' | 'spoil' | 'stringify' | 'null' | 'unknown';
  path: string;
  /** The appended element of an `unknown` mutation. */
  element?: unknown;
};

const FIRST_KINDS: Mutation['kind'][] = ['drop', 'add', 'spoil', 'stringify'];
const NEW_KINDS: Mutation['kind'][] = ['null', 'unknown'];

/** The type name no client knows. */
const UNKNOWN_TYPE = '<unknown>';

/** A list's first element if it is typed (`{type: "...", ...}`): the model of an unknown one. */
function typedElement(list: unknown[]): Record<string, unknown> | undefined {
  const first = list[0];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return undefined;
  return typeof (first as { type?: unknown }).type === 'string'
    ? (first as Record<string, unknown>)
    : undefined;
}

/** Every mutation the captured reply allows, by path. */
function mutations(reply: unknown, { always, typed = [], whole = [] }: Case): Mutation[] {
  const found: Mutation[] = [];
  const pattern = (path: string) => path.replace(/\.\d+(?=\.|$)/g, '.*');
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      if (node.length > 1 && !whole.includes(pattern(path)))
        found.push({ kind: 'spoil', path: `${path}.${node.length - 1}` });
      // Its fields as the known element's, its type unknown: a client that reads past the type shows it.
      const model = typedElement(node);
      if (model && !whole.includes(pattern(path)))
        found.push({
          kind: 'unknown',
          path: `${path}.${node.length}`,
          element: { ...model, type: UNKNOWN_TYPE },
        });
      for (const [i, item] of node.slice(0, 2).entries()) walk(item, `${path}.${i}`);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    found.push({ kind: 'add', path: path ? `${path}.x_surprise` : 'x_surprise' });
    for (const [key, value] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      if (!always.includes(pattern(at))) {
        found.push({ kind: 'drop', path: at });
        if (value !== null) found.push({ kind: 'null', path: at });
      }
      const fixed = always.includes(pattern(at)) || typed.includes(pattern(at));
      if (typeof value === 'number' && !fixed) found.push({ kind: 'stringify', path: at });
      walk(value, at);
    }
  };
  walk(reply, '');
  return found;
}

function byKind(all: Mutation[]): fc.Arbitrary<Mutation> {
  const kinds = [...new Set(all.map((m) => m.kind))];
  return fc.constantFrom(...kinds).chain((kind) => fc.constantFrom(...all.filter((m) => m.kind === kind)));
}

const RESHAPES: Record<Mutation['kind'], (m: Mutation) => Reshape> = {
  drop: (m) => ({ drop: [m.path] }),
  add: (m) => ({ set: { [m.path]: { unexpected: true } } }),
  spoil: (m) => ({ set: { [m.path]: 42 } }),
  stringify: (m) => ({ stringify: [m.path] }),
  null: (m) => ({ set: { [m.path]: null } }),
  unknown: (m) => ({ set: { [m.path]: m.element } }),
};

/** The dotted pattern of a path (`data.1.id` -> `data.*.id`). */
const patternOf = (path: string) => path.replace(/\.\d+(?=\.|$)/g, '.*');

/**
 * One mutated reply, read by the case's tool: it answers (the same kind of result, or one that
 * names what it left out), never crashes, never upstream_invalid (save for a `needed` field gone).
 */
async function tryMutation(c: Case, h: Harness, m: Mutation): Promise<void> {
  sandbox.faults.clear();
  // Paid runs add up over the cases (videos, experiments): the demo balance never runs out.
  sandbox.state.setBalance(sandbox.demoKey, 1000);
  const run = filled(c, (await c.prepare?.(h)) ?? {});
  sandbox.faults.add({ match: { path: run.path }, reshape: RESHAPES[m.kind](m) });
  const result = await h.call(run.tool, run.args);
  // The mutated reply was read (a case whose tool never reached the route proves nothing).
  expect(sandbox.faults.list(), `${m.kind} ${m.path}: the route was not called`).toHaveLength(0);
  const text = textOf(result);
  // No key secret reaches a result, whatever the reply (api_keys_write create gets one).
  expect(JSON.stringify(result), `${m.kind} ${m.path}`).not.toContain(SANDBOX_KEY_PREFIX);
  // Null is "not sent": a `needed` field sent as null may leave nothing to answer, as its drop does.
  const bare = (m.kind === 'drop' || m.kind === 'null') && (c.needed ?? []).includes(patternOf(m.path));
  if (result.isError && bare) expect(text, `${m.kind} ${m.path}`).not.toMatch(/internal/i);
  else if (result.isError) expect(text, `${m.kind} ${m.path}`).not.toMatch(/upstream_invalid|internal/i);
  expect(result.content.length, `${m.kind} ${m.path}`).toBeGreaterThan(0);
  // A spoiled element of a list the tool reads one by one is left out and named; so is an unknown one.
  const list = patternOf(m.path.replace(/\.\d+$/, ''));
  if (m.kind === 'spoil' && !result.isError && (c.named ?? []).includes(list))
    expect(text, `${m.kind} ${m.path}`).toMatch(/not usable/);
  if (m.kind === 'unknown' && !result.isError && (c.blocks ?? []).includes(list))
    expect(text, `${m.kind} ${m.path}`).toMatch(/not shown/);
}

/**
 * `MUTATION_ALL=1`: every mutation of every case is tried, none sampled, and the file prints how
 * many were answered, by kind (the figures of issue 32). Otherwise a fixed-seed sample.
 */
const ALL = process.env.MUTATION_ALL === '1';
const tally = new Map<string, { tried: number; answered: number; broken: string[] }>();

/** Every mutation of `kinds` tried in turn, the failures kept: for the figures. */
async function tryEvery(c: Case, h: Harness, all: Mutation[]): Promise<string[]> {
  const broken: string[] = [];
  for (const m of all) {
    const row = tally.get(m.kind) ?? { tried: 0, answered: 0, broken: [] };
    tally.set(m.kind, row);
    row.tried++;
    try {
      await tryMutation(c, h, m);
      row.answered++;
    } catch (error) {
      const line = `${c.tool}${c.label ? ` (${c.label})` : ''} ${m.kind} ${m.path}: ${(error as Error).message.split('\n')[0]}`;
      row.broken.push(line);
      broken.push(line);
    }
  }
  return broken;
}

async function tryKinds(c: Case, kinds: Mutation['kind'][], runs: number, seed: number): Promise<void> {
  const h = c.keyless ? keyless : c.signedIn ? signedIn : keyed;
  const every = mutations(await capture(filled(c, (await c.prepare?.(h)) ?? {})), c);
  const all = every.filter((m) => kinds.includes(m.kind));
  if (ALL) {
    expect(await tryEvery(c, h, all)).toEqual([]);
  } else if (all.length > 0) {
    await fc.assert(
      // Kind first, then a path of that kind: every kind is tried even where drops outnumber it.
      fc.asyncProperty(byKind(all), (m) => tryMutation(c, h, m)),
      { numRuns: runs, seed, endOnFailure: true },
    );
  }
  sandbox.faults.clear();
  // A reply that is the spec's fixed fields only (settings) allows just the unknown field added.
  expect(every.length).toBeGreaterThan(0);
}

describe('tools answer mutated platform replies', () => {
  for (const c of CASES) {
    it(`${c.tool} (${c.path}${c.label ? `, ${c.label}` : ''})`, () => tryKinds(c, FIRST_KINDS, 15, 25));
  }
});

describe('tools answer null fields and list elements of an unknown type (issue 32)', () => {
  for (const c of CASES) {
    it(`${c.tool} (${c.path}${c.label ? `, ${c.label}` : ''})`, () => tryKinds(c, NEW_KINDS, 8, 32));
  }
});

/**
 * The write-reply class (issue 32): a write's 2xx replaced whole by `{}`, by its envelope holding
 * `{}` (`{team: {}}`), and by a body that is not JSON. The platform accepted the write, so the tool
 * answers as done (what was sent, what could be read), never as a failure and never "call again".
 * Every tool that writes, spends or deletes and whose case sends its write, and music_generate
 * (audio bytes: no mutation case).
 */
const writing = new Set(catalog.filter((t) => !t.readOnly).map((t) => t.name));

/** Cases whose route is the write itself (not a poll, not a payment challenge). */
const WRITE_CASES: Case[] = [
  ...CASES.filter((c) => writing.has(c.tool) && c.capture.method !== 'GET' && !c.keyless),
  {
    tool: 'music_generate',
    args: { prompt: 'calm piano', model: 'music-lite' },
    path: '/api/v1/audio/speech',
    capture: { method: 'POST', body: { input: 'calm piano', model: 'music-lite' } },
    always: [],
  },
];

type WriteReply = { kind: string; reshape: Reshape };

/** The whole reply `{}`, each object-valued top field as `{}` (the envelope), and a page. */
function writeReplies(reply: unknown): WriteReply[] {
  const envelopes =
    typeof reply === 'object' && reply !== null && !Array.isArray(reply)
      ? Object.entries(reply).filter(
          ([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value),
        )
      : [];
  return [
    { kind: '{}', reshape: { replace: {} } },
    ...envelopes.map(([key]) => ({
      kind: `{${key}: {}}`,
      reshape: { replace: { ...(reply as Record<string, unknown>), [key]: {} } },
    })),
    { kind: 'not JSON', reshape: { text: '<html><body>Accepted</body></html>' } },
  ];
}

const wroteTally = { tried: 0, done: 0, failed: [] as string[] };

describe('a write whose 2xx reply cannot be read answers as done (issue 32)', () => {
  for (const c of WRITE_CASES) {
    it(`${c.tool} (${c.path}${c.label ? `, ${c.label}` : ''})`, async () => {
      expect(writing.has(c.tool), `${c.tool} writes`).toBe(true);
      const h = c.signedIn ? signedIn : keyed;
      const captured =
        c.tool === 'music_generate' ? {} : await capture(filled(c, (await c.prepare?.(h)) ?? {}));
      const failed: string[] = [];
      for (const w of writeReplies(captured)) {
        sandbox.faults.clear();
        sandbox.state.setBalance(sandbox.demoKey, 1000);
        const run = filled(c, (await c.prepare?.(h)) ?? {});
        // By method too: a write may read the same path first (teams_write update finds the team).
        sandbox.faults.add({ match: { method: run.capture.method, path: run.path }, reshape: w.reshape });
        const result = await h.call(run.tool, run.args);
        wroteTally.tried++;
        const text = textOf(result);
        const wrong =
          sandbox.faults.list().length > 0
            ? 'the route was not called'
            : result.isError
              ? `answered as failed: ${text.split('\n')[0]}`
              : /upstream_invalid|call again/i.test(text)
                ? `says ${text.split('\n')[0]}`
                : JSON.stringify(result).includes(SANDBOX_KEY_PREFIX)
                  ? 'a key secret in the result'
                  : undefined;
        if (wrong) failed.push(`${c.tool}${c.label ? ` (${c.label})` : ''} ${w.kind}: ${wrong}`);
        else wroteTally.done++;
      }
      sandbox.faults.clear();
      wroteTally.failed.push(...failed);
      expect(failed).toEqual([]);
    });
  }
});

afterAll(() => {
  if (ALL) {
    console.info(`write replies: ${wroteTally.done} of ${wroteTally.tried} answered as done`);
    for (const line of wroteTally.failed) console.info(`  failed: ${line}`);
  }
  if (!ALL) return;
  for (const [kind, row] of tally) {
    console.info(`${kind}: ${row.answered} of ${row.tried} mutated replies answered`);
    for (const line of row.broken) console.info(`  broken: ${line}`);
  }
});

describe('the mutation cases cover the catalog', () => {
  it('every tool has a case or is in NO_REPLY with a reason, never both', () => {
    const withCase = new Set(CASES.map((c) => c.tool));
    for (const { name, listing } of catalog) {
      const exempt = NO_REPLY[name];
      if (!exempt) {
        expect(withCase.has(name), `${name} reads a platform reply: add a case, or a NO_REPLY reason`).toBe(
          true,
        );
        continue;
      }
      expect(withCase.has(name), `${name} has a case and a NO_REPLY reason`).toBe(false);
      expect(exempt.why).toMatch(/^[^\n]{10,}$/);
      const annotations = listing.annotations as { openWorldHint?: boolean } | undefined;
      if (exempt.local) expect(annotations?.openWorldHint, `${name} is local`).toBe(false);
    }
    const named = new Set(catalog.map((t) => t.name));
    for (const name of [...withCase, ...Object.keys(NO_REPLY)])
      expect(named.has(name), `${name} is no tool`).toBe(true);
  });
});
