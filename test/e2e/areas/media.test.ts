import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../../src/sandbox/constants.js';
import { makeWav } from '../../../src/sandbox/media/audio.js';
import { type Harness, type Out, out, resourceText, startHarness, textOf } from '../../helpers/harness.js';

const TIMING = { speechJobMs: 150, transcriptionJobMs: 150, pollHintMs: 30 };
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { timing: TIMING } });
});
afterAll(async () => {
  await h.close();
});

const resourceBlob = (c: object | undefined) => (c && 'blob' in c ? String(c.blob) : '');

const PNG = '89504e470d0a1a0a';
const head = async (path: string, bytes = 8) => (await readFile(path)).subarray(0, bytes);

describe('image_generate', () => {
  it('saves every image (URL reply), shows it inline and links it as orbit://media', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('image_generate', {
      model: 'pixel-lite',
      prompt: 'a red fox',
      n: 2,
      resolution: '512x512',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.images).toHaveLength(2);
    expect(o.cost).toBe(0.002);
    for (const image of o.images) {
      expect((await head(image.path)).toString('hex')).toBe(PNG);
      expect(image.path).toMatch(new RegExp(`^${h.outputDir}/[a-f0-9]{32}\\.png$`));
      expect(image.uri).toMatch(/^orbit:\/\/media\/[a-f0-9]{32}$/);
    }
    expect(result.content.filter((c) => c.type === 'image')).toHaveLength(2);
    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links.map((l) => (l as Out).description)).toEqual(
      o.images.map((i: Out) => expect.stringContaining(i.path)),
    );
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/images');
    expect(sent?.json).toEqual({ model: 'pixel-lite', prompt: 'a red fox', n: 2, resolution: '512x512' });
    const media = await h.client.readResource({ uri: o.images[0].uri });
    expect(media.contents[0]).toMatchObject({ mimeType: 'image/png' });
    expect(Buffer.from(resourceBlob(media.contents[0]), 'base64').subarray(0, 8).toString('hex')).toBe(PNG);
  });

  it('saves base64 replies too', async () => {
    const result = await h.call('image_generate', {
      model: 'sandbox/image-pro',
      prompt: 'a blue whale',
      quality: 'high',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((await head(out(result).images[0].path)).toString('hex')).toBe(PNG);
  });

  it('checks the model record before sending: a value or parameter the model does not take is refused', async () => {
    h.sandbox.clearRequests();
    const bad = await h.call('image_generate', { model: 'pixel-lite', prompt: 'x', resolution: '4096x4096' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/resolution` must be one of 512x512, 1024x1024/);
    const unknown = await h.call('image_generate', { model: 'pixel-lite', prompt: 'x', quality: 'high' });
    expect(textOf(unknown)).toMatch(/pixel-lite does not take `quality`/);
    const refs = await h.call('image_generate', {
      model: 'pixel-lite',
      prompt: 'x',
      input_references: ['https://e.com/a.png'],
    });
    expect(textOf(refs)).toMatch(/does not take `input_references`/);
    expect(h.sandbox.requests.filter((r) => r.path === '/api/v1/images')).toHaveLength(0);
  });

  it('refuses the legacy image aliases', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('image_generate', {
      model: 'sandbox/image-edit',
      prompt: 'x',
      imageDataUrl: 'data:image/png;base64,AA',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/imageDataUrl is a legacy field[\s\S]*input_references/);
    expect(h.sandbox.requests.filter((r) => r.path === '/api/v1/images')).toHaveLength(0);
  });

  it('sends local reference files as data URLs and URLs as they are', async () => {
    const first = out(await h.call('image_generate', { model: 'pixel-lite', prompt: 'a reference' }))
      .images[0];
    h.sandbox.clearRequests();
    const result = await h.call('image_generate', {
      model: 'sandbox/image-edit',
      prompt: 'combine',
      input_references: [first.path, 'https://example.com/b.png'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/images')?.json as Out;
    expect(sent.input_references[0]).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(sent.input_references[1]).toBe('https://example.com/b.png');
  });

  it('refuses a path outside the allowed roots before any request', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('image_generate', {
      model: 'sandbox/image-edit',
      prompt: 'x',
      input_references: ['/etc/hostname'],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outside the folders this server may read/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it('passes on a content-policy rejection', async () => {
    const result = await h.call('image_generate', { model: 'pixel-lite', prompt: 'nsfw poster' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/content_policy_violation[\s\S]*not charged/);
  });

  it('says how much balance is required', async () => {
    const key = h.sandbox.state.createKey({ balance: 0.01 });
    const poor = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: key, source: 'env' }],
    });
    try {
      const result = await poor.call('image_generate', {
        model: 'sandbox/image-pro',
        prompt: 'x',
        n: 2,
        resolution: '1536x1024',
      });
      expect(textOf(result)).toMatch(/HTTP 402[\s\S]*requiredBalance: 0\.12/);
    } finally {
      await poor.close();
    }
  });
});

describe('image_edit', () => {
  it('uploads local files as multipart', async () => {
    const source = out(await h.call('image_generate', { model: 'pixel-lite', prompt: 'to edit' })).images[0];
    h.sandbox.clearRequests();
    const result = await h.call('image_edit', {
      prompt: 'add a hat',
      images: [source.path],
      mask: source.path,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/images/edits');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.body).toContain('name="image"; filename=');
    expect(sent?.body).toContain('name="mask"; filename=');
    expect((await head(out(result).images[0].path)).toString('hex')).toBe(PNG);
    expect(out(result).cost).toBe(0.03);
  });

  it('sends data URLs as JSON', async () => {
    const source = out(await h.call('image_generate', { model: 'pixel-lite', prompt: 'json edit' }))
      .images[0];
    const dataUrl = `data:image/png;base64,${(await readFile(source.path)).toString('base64')}`;
    h.sandbox.clearRequests();
    const result = await h.call('image_edit', { prompt: 'make it night', images: [dataUrl, dataUrl] });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = h.sandbox.requests.find((r) => r.path === '/api/v1/images/edits');
    expect((sent!.json as Out).imageDataUrls).toHaveLength(2);
  });

  it('refuses an oversized upload before sending, and says to use a URL', async () => {
    const big = join(h.outputDir, 'huge.png');
    await writeFile(big, Buffer.alloc(5 * 1_048_576, 7));
    h.sandbox.clearRequests();
    const result = await h.call('image_edit', { prompt: 'x', images: [big] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/5 MB; an image edit takes at most 4 MB[\s\S]*https URL/);
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe('speech_generate', () => {
  it('saves binary audio, returns it inline, and reports the cost', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('speech_generate', {
      text: 'Hello there, world.',
      model: 'tts-mini',
      voice: 'alloy',
      format: 'wav',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.status).toBe('completed');
    expect((await head(o.path, 12)).toString('latin1')).toMatch(/^RIFF....WAVE$/s);
    expect(o.path).toMatch(/\.wav$/);
    expect(o.cost).toBeGreaterThan(0);
    expect(result.content.find((c) => c.type === 'audio')).toMatchObject({ mimeType: 'audio/wav' });
    expect(h.sandbox.requests.find((r) => r.path === '/api/tts')?.json).toMatchObject({
      text: 'Hello there, world.',
      voice: 'alloy',
      response_format: 'wav',
    });
  });

  it('follows a JSON reply with an audioUrl', async () => {
    const result = await h.call('speech_generate', {
      text: 'Short studio line.',
      model: 'tts-studio',
      voice: 'narrator',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const bytes = await head(out(result).path, 3);
    expect(bytes[0] === 0xff || bytes.toString('latin1') === 'ID3').toBe(true);
    expect(out(result).path).toMatch(/\.mp3$/);
  });

  it('waits for an async job with progress and saves the result', async () => {
    const progress: Progress[] = [];
    const text = 'A long narration. '.repeat(20);
    const result = await h.call(
      'speech_generate',
      { text, model: 'tts-studio', options: { stability: 0.5 } },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result)).toMatchObject({ status: 'completed', run_id: expect.stringMatching(/^tts_/) });
    expect(progress.some((p) => /in queue, position|synthesizing/.test(p.message ?? ''))).toBe(true);
    expect(
      h.sandbox.requests.some((r) => r.path === '/api/tts/status' && r.query.model === 'tts-studio'),
    ).toBe(true);
  });

  it('hands back a run_id past the wait, and job_status (a free read) finishes it', async () => {
    const text = 'Another long narration. '.repeat(20);
    const first = await h.call('speech_generate', { text, model: 'tts-studio', max_wait_s: 0 });
    expect(first.isError).toBeFalsy();
    expect(out(first)).toMatchObject({
      status: 'pending',
      next: expect.stringContaining('job_status with run_id'),
    });
    h.sandbox.clearRequests();
    const done = await h.call('job_status', { run_id: out(first).run_id });
    expect(out(done)).toMatchObject({
      kind: 'speech',
      status: 'completed',
      uri: expect.stringMatching(/^orbit:/),
    });
    // Only status polls and the download: nothing paid again.
    expect(h.sandbox.requests.map((r) => r.path).filter((p) => p !== '/api/tts/status')).toEqual([
      expect.stringContaining('/media/'),
    ]);
  });

  it('reports an async content-policy error', async () => {
    const result = await h.call('speech_generate', {
      text: `nsfw ${'words '.repeat(60)}`,
      model: 'tts-studio',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/job_failed[\s\S]*content policy[\s\S]*CONTENT_POLICY_VIOLATION/);
  });

  it('streams through the common speech route', async () => {
    h.sandbox.clearRequests();
    const result = await h.call('speech_generate', {
      text: 'Streaming hello.',
      model: 'tts-mini',
      stream: true,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(h.sandbox.requests.find((r) => r.path === '/api/v1/audio/speech')?.json).toMatchObject({
      stream: true,
      input: 'Streaming hello.',
    });
    expect(out(result).path).toMatch(/\.mp3$/);
  });

  it('reports the audio arriving while a streamed reply comes in', async () => {
    // 8 s of 16 kHz WAV is 256 KB, sent in 4 KB chunks 5 ms apart.
    const paced = await startHarness({ sandbox: { timing: { ...TIMING, streamChunkDelayMs: 5 } } });
    try {
      const progress: Progress[] = [];
      const result = await paced.call(
        'speech_generate',
        { text: 'A long sentence to speak. '.repeat(6), model: 'tts-mini', format: 'wav', stream: true },
        { onprogress: (p) => progress.push(p) },
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      const received = progress
        .map((p) => /^receiving audio, (\d+) KB$/.exec(p.message ?? '')?.[1])
        .filter((kb): kb is string => kb !== undefined)
        .map(Number);
      expect(received.length).toBeGreaterThan(1);
      for (let i = 1; i < received.length; i++) expect(received[i]).toBeGreaterThan(received[i - 1]!);
      expect((await readFile(out(result).path!)).length).toBeGreaterThan(received.at(-1)! * 1024 - 1024);
    } finally {
      await paced.close();
    }
  });

  it('job_status says plainly when it knows no such job, and what to pass', async () => {
    const unknown = await h.call('job_status', { run_id: 'tts_nope' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No speech or transcription job "tts_nope"[\s\S]*kind: "speech"/);
    const ticketless = await h.call('job_status', { run_id: 'tr_other', kind: 'transcription' });
    expect(textOf(ticketless)).toMatch(/no ticket for transcription tr_other/);
  });

  it('asks for text', async () => {
    const result = await h.call('speech_generate', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_input[\s\S]*text/);
  });
});

describe('music_generate', () => {
  it('saves a track from a music model', async () => {
    const result = await h.call('music_generate', { prompt: 'calm piano', model: 'music-lite' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result).path).toMatch(/\.mp3$/);
    expect(out(result).cost).toBe(0.02);
    expect(
      h.sandbox.requests.find(
        (r) => r.path === '/api/v1/audio/speech' && (r.json as Out).model === 'music-lite',
      )?.json,
    ).toMatchObject({ input: 'calm piano' });
  });

  it('explains a model that is not a music or speech model', async () => {
    const result = await h.call('music_generate', { prompt: 'x', model: 'whisper-sandbox' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/transcription model/);
  });
});

describe('transcribe', () => {
  it('uploads a local file as multipart and returns the text, minutes and cost', async () => {
    const wav = join(h.outputDir, 'hello.wav');
    await writeFile(wav, makeWav(3, 1));
    h.sandbox.clearRequests();
    const result = await h.call('transcribe', { file: wav, language: 'en' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(out(result)).toMatchObject({ status: 'completed', charged_min: 1, cost: 0.006, language: 'en' });
    expect(out(result).text).toContain('quick brown fox');
    const sent = h.sandbox.requests.find((r) => r.path === '/api/transcribe');
    expect(sent?.body).toContain('name="audio"; filename="hello.wav"');
  });

  it('waits for an async transcription and keeps diarization segments and words', async () => {
    const result = await h.call('transcribe', {
      url: 'https://example.com/talk.mp3',
      model: 'scribe-async',
      diarize: true,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.segments.length).toBe(2);
    expect(o.segments[0]).toMatchObject({ speaker: 'speaker_0', start: 0 });
    expect(o.words.length).toBeGreaterThan(4);
    expect(o.words[0]).toMatchObject({ text: 'the' });
    expect(o.cost).toBe(0.01);
    const status = h.sandbox.requests.find((r) => r.path === '/api/transcribe/status');
    expect(status?.json).toMatchObject({
      runId: o.run_id,
      isApiRequest: true,
      diarize: true,
      chargedDuration: 1,
    });
  });

  it('returns a run_id past the wait and resumes it', async () => {
    const first = await h.call('transcribe', {
      url: 'https://example.com/long.mp3',
      model: 'scribe-async',
      max_wait_s: 0,
    });
    expect(out(first)).toMatchObject({
      status: 'pending',
      next: expect.stringContaining('job_status with run_id'),
    });
    const done = await h.call('job_status', { run_id: out(first).run_id });
    expect(out(done)).toMatchObject({ kind: 'transcription', status: 'completed', text: expect.any(String) });
  });

  it('reports a failed async transcription as an error', async () => {
    const result = await h.call('transcribe', {
      url: 'https://example.com/corrupt.mp3',
      model: 'scribe-async',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/job_failed[\s\S]*could not be decoded/);
  });

  it('refuses an upload over 3 MB before sending, and says to use a URL', async () => {
    const big = join(h.outputDir, 'big.wav');
    await writeFile(big, Buffer.concat([makeWav(1, 1), Buffer.alloc(3 * 1_048_576)]));
    h.sandbox.clearRequests();
    const result = await h.call('transcribe', { file: big });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/transcription takes at most 3 MB[\s\S]*URL/);
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe('transcribe_video_links', () => {
  it('reports each link on its own and charges only successes', async () => {
    const result = await h.call('transcribe_video_links', {
      urls: [
        'https://www.youtube.com/watch?v=abc123xyz',
        'https://youtu.be/private999',
        'https://example.com/not-a-video',
      ],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const o = out(result);
    expect(o.transcripts.map((t: Out) => t.ok)).toEqual([true, false, false]);
    expect(o.transcripts[0].text).toContain('abc123xyz');
    expect(o.transcripts[1].error).toMatch(/No transcript/);
    expect(o.summary).toMatchObject({ successful: 1, failed: 2, total_cost: 0.01 });
  });

  it('refuses more than 10 links before sending', async () => {
    const result = await h.call('transcribe_video_links', {
      urls: Array.from({ length: 11 }, (_, i) => `https://youtu.be/video${i}xx`),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/urls/);
  });
});

describe('files and roots', () => {
  it('reads local inputs only inside the roots the client offers', async () => {
    const inside = await mkdtemp(join(tmpdir(), 'orbit-root-'));
    const rooted = await startHarness({ sharedSandbox: h.sandbox, roots: [inside] });
    try {
      const wav = join(inside, 'in.wav');
      await writeFile(wav, makeWav(1, 2));
      const ok = await rooted.call('transcribe', { file: wav });
      expect(ok.isError, textOf(ok)).toBeFalsy();
      // The working directory is no longer a root once the client names its own.
      h.sandbox.clearRequests();
      const outside = await rooted.call('transcribe', { file: join(process.cwd(), 'package.json') });
      expect(textOf(outside)).toMatch(/outside the folders this server may read/);
      expect(h.sandbox.requests).toHaveLength(0);
    } finally {
      await rooted.close();
      await rm(inside, { recursive: true, force: true });
    }
  });

  it('shows the last known state of a job as orbit://jobs/{id}', async () => {
    const first = await h.call('transcribe', {
      url: 'https://example.com/job.mp3',
      model: 'scribe-async',
      max_wait_s: 0,
    });
    const job = await h.client.readResource({ uri: `orbit://jobs/${out(first).run_id}` });
    const record = JSON.parse(resourceText(job.contents[0]));
    expect(record).toMatchObject({
      kind: 'transcription',
      status: 'processing',
      next: expect.objectContaining({ tool: 'job_status' }),
    });
    expect(record.resume).toBeUndefined();
    const { resources } = await h.client.listResources();
    expect(resources.some((r) => r.uri === `orbit://jobs/${out(first).run_id}`)).toBe(true);
    expect(resources.some((r) => r.uri.startsWith('orbit://media/'))).toBe(true);
  });

  it('does not charge the demo key for refused inputs', () => {
    expect(h.sandbox.state.balance(SANDBOX_DEMO_KEY)).toBeGreaterThan(0);
  });
});
