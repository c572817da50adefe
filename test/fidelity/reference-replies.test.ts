import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_DEMO_KEY,
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAMS,
} from '../../src/sandbox/index.js';
import { makeWav } from '../../src/sandbox/media/audio.js';
import { credentials } from '../helpers/accounts.js';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 32 item 5: replies shaped as the platform's published reference shows them, served as
// they are (a fault's verbatim body or a reshape of the sandbox's own), so each case fails on a
// client that reads them otherwise, whatever the sandbox answers itself.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { toolsets: 'all' },
    credentials: credentials({
      key: SANDBOX_DEMO_KEY,
      token: SANDBOX_MANAGEMENT_TOKENS.all,
      session: SANDBOX_PEOPLE.demo.session,
    }),
  });
});
afterAll(async () => {
  await h.close();
});

const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await h.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
};
/** The next request to this route is answered with `body`, as the platform sent it. */
const serve = (method: string, path: string, body: unknown) =>
  h.sandbox.faults.add({ match: { method, path }, status: 200, body });

describe('web_search, sourced answer', () => {
  it('reads the answer and sources nested under data', async () => {
    serve('POST', '/api/web', {
      data: {
        answer: 'Rayleigh scattering makes the sky blue [1].',
        sources: [
          { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
        ],
      },
      metadata: { query: 'why is the sky blue', outputType: 'sourcedAnswer', cost: 0.006 },
    });
    const got = out(await ok('web_search', { query: 'why is the sky blue', output: 'sourcedAnswer' }));
    expect(got).toMatchObject({
      answer: 'Rayleigh scattering makes the sky blue [1].',
      results: [
        { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
      ],
      cost: 0.006,
    });
  });
});

describe('x402_endpoints', () => {
  it('lists each route named by endpoint, with the rails of each row', async () => {
    serve('GET', '/api/v1/x402/endpoints', {
      data: [
        {
          method: 'POST',
          endpoint: '/api/v1/data/web/search',
          pricing: '0.006 USD per search',
          schemes: ['x402-exact', 'lightning-l402'],
        },
        { method: 'POST', endpoint: '/api/v1/data/url/scrape', schemes: ['base-usdc'] },
        { method: 'POST', description: 'names no route' },
      ],
    });
    expect(out(await ok('x402_endpoints', {})).routes).toEqual([
      'POST /api/v1/data/web/search: 0.006 USD per search (web_search); rails: x402-exact, lightning-l402',
      'POST /api/v1/data/url/scrape (data_call endpoint url.scrape); rails: base-usdc',
      '(1 route not usable: #3 names no route)',
    ]);
  });
});

describe('usage_get, management usage', () => {
  it('keeps the input-token and image quotas of a reply without degraded', async () => {
    const resetAt = Date.UTC(2030, 0, 2);
    const window = (used: number, limit: number) => ({
      used,
      remaining: limit - used,
      percentUsed: used / limit,
      resetAt,
    });
    // Every lookup worked, so the reply has no `degraded` (the reference sends it only on a failure).
    serve('GET', '/api/management/v1/subscription/usage', {
      active: true,
      state: 'active',
      limits: { dailyInputTokens: 1000, weeklyInputTokens: 5000, dailyImages: 10 },
      dailyInputTokens: window(100, 1000),
      weeklyInputTokens: window(400, 5000),
      dailyImages: window(2, 10),
      period: { currentPeriodEnd: '2030-02-01T00:00:00.000Z' },
    });
    const got = out(await ok('usage_get', {}));
    expect(got.quotas).toMatchObject({
      daily_input_tokens: { used: 100, limit: 1000, remaining: 900 },
      weekly_input_tokens: { used: 400, limit: 5000 },
      daily_images: { used: 2, limit: 10, percent_used: 20 },
    });
    expect(got.degraded).toBeUndefined();
  });
});

describe('eval output items', () => {
  it('keeps an item without input, with its score, reasoning and output', async () => {
    // Items as the reference shows them: no `input` (the row is known by its index).
    const fault = h.sandbox.faults.add({
      match: { method: 'GET', path: '/api/v1/evals/experiments/*' },
      persist: true,
      reshape: { drop: ['data.*.input'] },
    });
    try {
      const got = out(
        await ok('eval_run', {
          rows: [{ input: 'Say five', expected_output: 'six' }],
          candidates: [{ model: 'openai/gpt-sandbox-mini' }],
          scorers: ['exact_match'],
          settings: { store_content: true },
        }),
      );
      expect(got.not_usable).toBeUndefined();
      expect(got.table).toEqual([expect.objectContaining({ count: 1, mean: 0 })]);
      expect(got.worst).toEqual([expect.stringMatching(/^row 1, .*exact_match: 0: .+ \| output: ".+"$/)]);
      expect(got.worst[0]).not.toContain('input:');
    } finally {
      h.sandbox.faults.remove(fault);
    }
  });
});

describe('fields each reply carries', () => {
  it("keeps each transcribed word's speaker_id and type", async () => {
    const wav = join(h.outputDir, 'words.wav');
    await writeFile(wav, makeWav(2, 4));
    serve('POST', '/api/transcribe/status', {
      status: 'completed',
      transcription: 'Hello there',
      words: [
        { text: 'Hello', start: 0, end: 0.4, type: 'word', speaker_id: 'speaker_0' },
        { text: ' ', start: 0.4, end: 0.5, type: 'spacing', speaker_id: 'speaker_0' },
        { text: 'there', start: 0.5, end: 0.9, type: 'word', speaker_id: 'speaker_1' },
      ],
    });
    const got = out(await ok('transcribe', { file: wav, model: 'scribe-async' }));
    expect(got.words).toEqual([
      { text: 'Hello', start: 0, end: 0.4, type: 'word', speaker_id: 'speaker_0' },
      { text: ' ', start: 0.4, end: 0.5, type: 'spacing', speaker_id: 'speaker_0' },
      { text: 'there', start: 0.5, end: 0.9, type: 'word', speaker_id: 'speaker_1' },
    ]);
  });

  it('keeps when each recent video run was made and its conversation', async () => {
    serve('GET', '/api/generate-video/recover', {
      success: true,
      runs: [
        {
          runId: 'vid_ref_1',
          model: 'sandbox/video-pro',
          status: 'COMPLETED',
          prompt: 'a fox in the snow',
          createdAt: '2026-01-02T03:04:05.000Z',
          conversationUUID: '3f2a9c1e-0b7d-4c55-9e21-5d8f0a6b7c11',
        },
      ],
    });
    expect(out(await ok('video_recent', {})).runs).toEqual([
      {
        run_id: 'vid_ref_1',
        model: 'sandbox/video-pro',
        status: 'COMPLETED',
        prompt: 'a fox in the snow',
        created_at: '2026-01-02T03:04:05.000Z',
        conversation_uuid: '3f2a9c1e-0b7d-4c55-9e21-5d8f0a6b7c11',
      },
    ]);
  });

  it("keeps a JSON speech reply's duration", async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: '/api/tts' },
      reshape: { set: { duration: 2.5 } },
    });
    const result = await ok('speech_generate', { text: 'Short and sweet.', model: 'tts-studio' });
    expect(out(result)).toMatchObject({ status: 'completed', duration: 2.5 });
    expect(textOf(result)).toContain('Duration: 2.5 s');
  });
});

describe('write results: what was sent and what the platform said, never a value made up', () => {
  const team = SANDBOX_TEAMS.main;

  it('revokes an invitation without claiming a status the platform did not send', async () => {
    const invited = out(
      await ok('teams_write', { operation: 'invite', team: team.uuid, email: 'cleo@example.com' }),
    ).data;
    expect(invited).toMatchObject({
      sent: { email: 'cleo@example.com', role: 'member' },
      invitation: { id: expect.anything(), status: 'pending' },
    });
    // The reference's result of a revoke says no more than this.
    serve('PATCH', `/api/teams/${team.uuid}/invitations`, { ok: true });
    const revoked = out(
      await ok('teams_write', {
        operation: 'revoke_invitation',
        team: team.uuid,
        invitation: String(invited.invitation.id),
        confirm: team.name,
      }),
    ).data;
    expect(revoked).toEqual({
      sent: { action: 'revoke', id: invited.invitation.id },
      reply: { ok: true },
      invitation: { id: invited.invitation.id, email: 'cleo@example.com', role: 'member' },
    });
  });

  it('keeps what an invitation reply left out as sent, not as said', async () => {
    h.sandbox.faults.add({
      match: { method: 'POST', path: `/api/teams/${team.uuid}/invitations` },
      reshape: { drop: ['invitation.email', 'invitation.role'] },
    });
    const data = out(
      await ok('teams_write', {
        operation: 'invite',
        team: team.uuid,
        email: 'dev@example.com',
        role: 'admin',
      }),
    ).data;
    expect(data.sent).toEqual({ email: 'dev@example.com', role: 'admin' });
    expect(data.invitation).not.toHaveProperty('email');
    expect(data.invitation).not.toHaveProperty('role');
  });
});
