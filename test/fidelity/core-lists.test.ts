import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../src/sandbox/index.js';
import { credentials } from '../helpers/accounts.js';
import { WEATHER } from '../helpers/chat.js';
import { type Harness, out, resourceText, startHarness, textOf } from '../helpers/harness.js';

/**
 * Issue 32 item 3: no core list fails whole. One element of `choices`, of a message's
 * `tool_calls`, a messages-format `content` block, a responses-format `output` item or its
 * `content`, embeddings `data`, the image model catalog or team `invitations` that cannot be used
 * is left out and named; the rest answers. A block or item of a type this server does not know is
 * kept out of the answer as "not shown" and named; a tool call without an id gets one, said.
 */
process.env.ORBIT_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'orbit-core-lists-'));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    credentials: credentials({ key: P.demo.apiKey, token: T.all, session: P.demo.session }),
    config: { toolsets: 'all' },
  });
});
afterAll(async () => {
  await h.close();
});

const MODEL = 'openai/gpt-sandbox';
const UNKNOWN = { type: '<unknown>', payload: { any: 1 } };

describe('chat reads its lists element by element', () => {
  it('chat format: a choice that cannot be read is left out and named; the other answers', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/v1/chat/completions' },
      reshape: { set: { 'choices.1': 42 } },
    });
    const result = await h.call('chat', { model: MODEL, format: 'chat', stream: false, prompt: 'Say hello' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).text).not.toBe('');
    expect(out(result).not_usable).toMatch(/^choice #2 not usable \(/);
    expect(textOf(result)).toContain(`(${out(result).not_usable}.)`);
  });

  it('chat format: a tool call without an id gets one, and one of an unknown type is named, not shown', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/v1/chat/completions' },
      reshape: {
        drop: ['choices.0.message.tool_calls.0.id'],
        set: { 'choices.0.message.tool_calls.1': UNKNOWN },
      },
    });
    const result = await h.call('chat', {
      model: MODEL,
      format: 'chat',
      stream: false,
      prompt: 'Use the get_weather tool for Paris',
      tools: [WEATHER],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const calls = out(result).tool_calls;
    expect(calls).toEqual([
      { id: expect.stringMatching(/^call_req_\w+_0$/), name: 'get_weather', arguments: expect.any(Object) },
    ]);
    expect(out(result).not_usable).toContain('tool call of type <unknown> not shown');
    expect(out(result).not_usable).toContain(
      `tool call get_weather came without an id: given ${calls[0].id}`,
    );
  });

  it('messages format: a block of an unknown type is named, not shown; one that is no block is left out', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/v1/messages' },
      reshape: { set: { 'content.1': UNKNOWN, 'content.2': 'not a block' } },
    });
    const result = await h.call('chat', {
      model: MODEL,
      format: 'messages',
      stream: false,
      prompt: 'Say hello',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).text).not.toBe('');
    expect(out(result).not_usable).toMatch(
      /content block #3 not usable \(.+\); content block of type <unknown> not shown/,
    );
  });

  it('responses format: an output item of an unknown type and an odd content part are named', async () => {
    h.sandbox.faults.add({
      match: { path: '/api/v1/responses' },
      reshape: { drop: ['output_text'], set: { 'output.1': UNKNOWN, 'output.0.content.1': 7 } },
    });
    const result = await h.call('chat', {
      model: MODEL,
      format: 'responses',
      stream: false,
      prompt: 'Say hello',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).text).not.toBe('');
    expect(out(result).not_usable).toContain('content part #2 not usable');
    expect(out(result).not_usable).toContain('output item of type <unknown> not shown');
  });
});

describe('embeddings', () => {
  it('a vector that cannot be read costs its input only: the others are saved, it is named', async () => {
    h.sandbox.faults.add({ match: { path: '/api/v1/embeddings' }, reshape: { set: { 'data.1': 42 } } });
    const result = await h.call('embed', {
      input: ['alpha', 'beta', 'gamma'],
      model: 'text-embedding-3-small',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result)).toMatchObject({ count: 3 });
    expect(out(result).not_usable).toMatch(/^2 vectors not usable: #2 .+; input 1 got no vector$/);
    const saved = await h.client.readResource({ uri: out(result).files[0] });
    const vectors = JSON.parse(resourceText(saved.contents[0])).embeddings;
    expect(vectors[1]).toBeNull();
    expect(vectors[0]).toHaveLength(vectors[2].length);
  });
});

describe('team invitations', () => {
  it('an invitation that cannot be read is left out and named; the others are listed', async () => {
    const created = await h.call('teams_write', { operation: 'create', name: 'Listed Invites' });
    const team = out(created).data.uuid as string;
    for (const email of ['ana@example.com', 'bo@example.com'])
      await h.call('teams_write', { operation: 'invite', team, email });
    h.sandbox.faults.add({
      match: { path: `/api/teams/${team}/invitations` },
      reshape: { set: { 'invitations.1': 42 } },
    });
    const result = await h.call('teams_read', { operation: 'invitations', team });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).data).toHaveLength(1);
    expect(out(result).not_usable).toMatch(/^1 invitation not usable: #2 /);
  });
});

describe('the image model catalog', () => {
  it("one unreadable record never hides the others, and the model's own unreadable record is said", async () => {
    // A fresh server: the catalog is read (and cached) on its first image call.
    const fresh = await startHarness({ config: { toolsets: 'all' } });
    try {
      fresh.sandbox.faults.add({
        match: { path: '/api/v1/images/models' },
        reshape: { set: { 'data.0.supported_parameters': 7, 'data.2': 42 } },
      });
      const result = await fresh.call('image_generate', {
        model: 'pixel-lite',
        prompt: 'a red fox',
        resolution: '512x512',
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(out(result).images).toHaveLength(1);
      expect(out(result).not_usable).toMatch(
        /the catalog's record of pixel-lite .+: its parameters were not checked here/,
      );
      // The record that could be read still checks its parameters, before anything is sent.
      const refused = await fresh.call('image_generate', {
        model: 'sandbox/image-pro',
        prompt: 'a red fox',
        resolution: '3x3',
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/invalid_input\): `resolution` must be one of/);
    } finally {
      await fresh.close();
    }
  });
});
