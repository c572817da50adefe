import { describe, expect, it } from 'vitest';
import { makeWav } from '../../src/sandbox/media/audio.js';
import { post, useSandbox } from './helpers.js';

describe('sandbox common-format transcription', () => {
  const sandbox = useSandbox();
  const form = (fields: Record<string, string | Blob>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };
  const upload = (data: FormData, key: string) =>
    fetch(`${sandbox().url}/api/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: data,
    });

  it('transcribes a multipart file into {text, language, duration}, charged per started minute', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const wav = new Blob([new Uint8Array(makeWav(2, 7))], { type: 'audio/wav' });
    const res = await upload(form({ file: wav, model: 'whisper-sandbox', language: 'fr' }), key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      text: 'the quick brown fox jumps',
      language: 'fr',
      duration: 2,
    });
    expect(sandbox().state.balance(key)).toBeCloseTo(1 - 0.006, 9);
  });

  it('takes JSON with file_url or audio_url, measuring sandbox media and counting others as a minute', async () => {
    const key = sandbox().state.createKey({ balance: 1 });
    const auth = { authorization: `Bearer ${key}` };
    const res = await post(
      sandbox(),
      '/api/v1/audio/transcriptions',
      { model: 'scribe-async', file_url: 'https://example.com/talk.mp3' },
      auth,
    );
    expect(await res.json()).toMatchObject({ language: 'en', duration: 60 });
    const alias = await post(
      sandbox(),
      '/api/v1/audio/transcriptions',
      { model: 'whisper-sandbox', audio_url: 'https://example.com/talk.mp3', language: 'de' },
      auth,
    );
    expect(await alias.json()).toMatchObject({ language: 'de' });
    expect(sandbox().state.balance(key)).toBeCloseTo(1 - 0.01 - 0.006, 9);
  });

  it('answers common-envelope 400s for a missing file, URL or model, and 413 for an upload over 3 MB', async () => {
    const key = sandbox().state.createKey();
    const noFile = await upload(form({ model: 'whisper-sandbox' }), key);
    expect((await noFile.json()).error).toMatchObject({ code: 'missing_required_parameter', param: 'file' });
    const auth = { authorization: `Bearer ${key}` };
    const noUrl = await post(sandbox(), '/api/v1/audio/transcriptions', { model: 'whisper-sandbox' }, auth);
    expect((await noUrl.json()).error.param).toBe('file_url');
    const wav = new Blob([new Uint8Array(makeWav(1, 1))], { type: 'audio/wav' });
    const noModel = await upload(form({ file: wav }), key);
    expect((await noModel.json()).error).toMatchObject({ param: 'model' });
    const speech = await upload(form({ file: wav, model: 'tts-mini' }), key);
    expect((await speech.json()).error.code).toBe('model_not_found');
    const big = new Blob([new Uint8Array(3 * 1_048_576 + 1)], { type: 'audio/wav' });
    const tooBig = await upload(form({ file: big, model: 'whisper-sandbox' }), key);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error.code).toBe('payload_too_large');
  });
});
