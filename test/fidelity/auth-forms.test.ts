import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../../src/sandbox/media/audio.js';
import { type Harness, startHarness, textOf } from '../helpers/harness.js';

// Issue 25: routes spec 2 marks `x-api-key` (§4.2 legacy text, §4.7 tts, §4.8 transcribe, §4.9
// video-link transcription) get the key in that header, never as a Bearer token.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'all' } });
});
afterAll(async () => {
  await h.close();
});

const sentTo = (path: string) => h.sandbox.requests.filter((r) => r.path === path);
const keyedByHeader = (path: string) => {
  const sent = sentTo(path);
  expect(sent.length, path).toBeGreaterThan(0);
  for (const r of sent) {
    expect(r.headers['x-api-key'], path).toBe(h.sandbox.demoKey);
    expect(r.headers.authorization, path).toBeUndefined();
  }
};

describe('auth form per route', () => {
  it('legacy text route: x-api-key (spec 2 §4.2)', async () => {
    h.sandbox.clearRequests();
    const id = h.sandbox.faults.add({
      status: 404,
      persist: true,
      match: { path: '/api/v1/chat/completions' },
    });
    try {
      const result = await h.call('chat', { model: 'openai/gpt-sandbox', prompt: 'Say something legacy' });
      expect(result.isError, textOf(result)).toBeFalsy();
    } finally {
      h.sandbox.faults.remove(id);
    }
    keyedByHeader('/api/talk-to-gpt');
  });

  it('tts, transcribe and video-link transcription: x-api-key', async () => {
    h.sandbox.clearRequests();
    const speech = await h.call('speech_generate', { text: 'Hello there' });
    expect(speech.isError, textOf(speech)).toBeFalsy();
    keyedByHeader('/api/tts');
    const wav = join(h.outputDir, 'hello.wav');
    await writeFile(wav, makeWav(3, 1));
    const heard = await h.call('transcribe', { file: wav });
    expect(heard.isError, textOf(heard)).toBeFalsy();
    keyedByHeader('/api/transcribe');
    const links = await h.call('transcribe_video_links', {
      urls: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    });
    expect(links.isError, textOf(links)).toBeFalsy();
    keyedByHeader('/api/youtube-transcribe');
  });
});

describe('speech voice controls with stream', () => {
  it('keeps the voice controls: /api/tts takes them, the common route shows none', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('speech_generate', {
      text: 'Hello',
      model: 'tts-studio',
      stream: true,
      options: { speed: 1.2, stability: 0.4 },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sentTo('/api/v1/audio/speech')).toHaveLength(0);
    expect(sentTo('/api/tts')[0]?.json).toMatchObject({ text: 'Hello', speed: 1.2, stability: 0.4 });
  });

  it('streams on the common route without voice controls', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('speech_generate', { text: 'Hello', stream: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sentTo('/api/v1/audio/speech')).toHaveLength(1);
  });
});

describe('transcription tagAudioEvents and actualDuration (spec 2 §4.8)', () => {
  it('sends both, multipart and JSON, and refuses a non-positive duration before sending', async () => {
    const wav = join(h.outputDir, 'tagged.wav');
    await writeFile(wav, makeWav(2, 3));
    h.sandbox.clearRequests();
    const result = await h.call('transcribe', { file: wav, tag_audio_events: true, actual_duration: 2 });
    expect(result.isError, textOf(result)).toBeFalsy();
    const body = sentTo('/api/transcribe')[0]!.body;
    expect(body).toContain('name="tagAudioEvents"\r\n\r\ntrue');
    expect(body).toContain('name="actualDuration"\r\n\r\n2');
    h.sandbox.clearRequests();
    const bad = await h.call('transcribe', { file: wav, actual_duration: 0 });
    expect(textOf(bad)).toMatch(/actual_duration/);
    expect(sentTo('/api/transcribe')).toHaveLength(0);
  });
});
