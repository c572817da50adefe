import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/sandbox/index.js';
import { type Harness, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: music_generate's reply is audio bytes (spec 2 §4.7, "the reply is audio, typically
// `audio/mpeg`"), so the JSON mutations do not apply to it; a reply that is not audio is answered
// with what came, never saved as a track nor a crash. A 2xx means the platform accepted the call
// (issue 32): it answers as done, says what could not be read and never to call again.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'media' } });
});
afterAll(async () => {
  await h.close();
});

const SPEECH = '/api/v1/audio/speech';
const compose = () => h.call('music_generate', { prompt: 'calm piano', model: 'music-lite' });
const saved = () => readdirSync(h.outputDir).length;

async function answered(fault: Omit<FaultSpec, 'match'>) {
  const before = saved();
  h.sandbox.faults.add({ match: { path: SPEECH }, ...fault });
  const result = await compose();
  expect(h.sandbox.faults.list(), 'the route was not called').toHaveLength(0);
  const accepted = (fault.status ?? 200) < 300;
  expect(result.isError, textOf(result)).toBe(accepted ? undefined : true);
  if (accepted) expect(textOf(result)).toMatch(/^Done: the platform accepted POST \/api\/v1\/audio\/speech/);
  expect(textOf(result)).not.toMatch(/internal|call again/i);
  expect(saved(), 'nothing is saved as a track').toBe(before);
  return textOf(result);
}

describe('music_generate answers a reply that is not audio with what came', () => {
  it('a page of another type (a proxy or login page) is not saved as a track', async () => {
    const text = await answered({
      status: 200,
      body: '<html><body>Service temporarily unavailable</body></html>',
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
    expect(text).toMatch(/text\/html where audio was expected; nothing was saved/);
  });

  it('a JSON body with neither audio nor a ticket says so, with the error it carries', async () => {
    const text = await answered({ status: 200, body: { error: 'The model is warming up.' } });
    expect(text).toMatch(/neither audio, an audioUrl nor a runId: The model is warming up\./);
  });

  it('an error status with a JSON envelope is that error', async () => {
    const text = await answered({ status: 503, message: 'Music models are down for maintenance.' });
    expect(text).toMatch(/Music models are down for maintenance\./);
  });

  it('a JSON body that does not parse is named', async () => {
    const text = await answered({ malformedBody: true });
    expect(text).toMatch(/not valid JSON/);
  });

  it('still saves a real track', async () => {
    const before = saved();
    const result = await compose();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(saved()).toBe(before + 1);
  });
});
