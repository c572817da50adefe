/**
 * Prompts and completions through a real 2025 MCP client in process: what prompts/list offers on
 * a connection, each prompt rendered with its arguments, bad arguments refused with a message
 * that says what to fix, and completion/complete for model ids (read from the sandbox's catalogs,
 * cached per tenant), toolset names and enum arguments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'all' } });
});
afterAll(async () => {
  await h?.close();
});

/** A prompt's text: its messages, one per line. */
const promptText = (result: { messages: { content: { type: string; text?: string } }[] }) =>
  result.messages.map((message) => message.content.text ?? '').join('\n');

const complete = (client: Harness['client'], name: string, argument: string, value: string, filled = {}) =>
  client.complete({
    ref: { type: 'ref/prompt', name },
    argument: { name: argument, value },
    context: { arguments: filled },
  });

describe('prompts/list', () => {
  it('offers each workflow with typed, described arguments', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'compare_models',
      'summarize_video',
      'narrated_clip',
      'check_spending',
      'get_started',
    ]);
    for (const prompt of prompts) {
      expect(prompt.title, prompt.name).toBeTruthy();
      expect(prompt.description, prompt.name).toBeTruthy();
      for (const argument of prompt.arguments ?? []) expect(argument.description, argument.name).toBeTruthy();
    }
    const compare = prompts.find((prompt) => prompt.name === 'compare_models');
    expect(compare?.arguments?.map(({ name, required }) => [name, required])).toEqual([
      ['question', true],
      ['models', false],
    ]);
    const summary = prompts.find((prompt) => prompt.name === 'summarize_video');
    expect(summary?.arguments?.find((a) => a.name === 'style')?.description).toMatch(
      /one of: bullets, paragraph, outline/,
    );
  });

  it('declares the prompts and completions capabilities', () => {
    expect(h.client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
  });

  it('hides the prompts whose tools read-only mode hides, and says why when one is asked for', async () => {
    const readOnly = await startHarness({ sharedSandbox: h.sandbox, config: { readOnly: true } });
    try {
      const { prompts } = await readOnly.client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['check_spending', 'get_started']);
      await expect(
        readOnly.client.getPrompt({ name: 'compare_models', arguments: { question: 'Why?' } }),
      ).rejects.toThrow(/Prompt "compare_models" needs chat, which this connection does not offer/);
    } finally {
      await readOnly.close();
    }
  });

  it('hides the prompts of a toolset switched off', async () => {
    const narrow = await startHarness({ sharedSandbox: h.sandbox, config: { toolsets: 'models,text' } });
    try {
      const { prompts } = await narrow.client.listPrompts();
      // check_spending needs usage_get, of the account toolset.
      expect(prompts.map((prompt) => prompt.name)).toEqual(['compare_models', 'get_started']);
      const tour = await narrow.client.getPrompt({ name: 'get_started', arguments: { toolset: 'media' } });
      expect(promptText(tour)).toContain('`--toolsets models,text,media`');
    } finally {
      await narrow.close();
    }
  });
});

describe('prompts/get', () => {
  it('compare_models asks each named model the question verbatim, and picks models when none are named', async () => {
    const named = await h.client.getPrompt({
      name: 'compare_models',
      arguments: { question: 'Why is the sky blue?', models: 'openai/gpt-sandbox, anthropic/claude-sandbox' },
    });
    expect(named.messages).toHaveLength(1);
    expect(named.messages[0]?.role).toBe('user');
    const text = promptText(named);
    expect(text).toContain('<question>\nWhy is the sky blue?\n</question>');
    expect(text).toContain('The models: openai/gpt-sandbox, anthropic/claude-sandbox.');
    expect(text).toContain('`chat` with {"model":"<model id>","prompt":"<the question, verbatim>"}');
    expect(text).not.toContain('models_list');
    const picked = promptText(
      await h.client.getPrompt({ name: 'compare_models', arguments: { question: 'Why?' } }),
    );
    expect(picked).toContain('`models_list` with {"kind":"text","detailed":true}');
  });

  it('summarize_video transcribes the link and summarises in the chosen style with the chosen model', async () => {
    const result = await h.client.getPrompt({
      name: 'summarize_video',
      arguments: { url: 'https://youtu.be/dQw4w9WgXcQ', style: 'paragraph', model: 'google/gemini-sandbox' },
    });
    const text = promptText(result);
    expect(text).toContain('`transcribe_video_links` with {"urls":["https://youtu.be/dQw4w9WgXcQ"]}');
    expect(text).toContain('"model":"google/gemini-sandbox"');
    expect(text).toContain('one paragraph of at most 120 words');
    // The default style is bullets.
    const plain = promptText(
      await h.client.getPrompt({ name: 'summarize_video', arguments: { url: 'https://vimeo.com/1' } }),
    );
    expect(plain).toContain('5 to 8 bullet points');
  });

  it('narrated_clip chains image, video and speech with the shape and narration given', async () => {
    const result = await h.client.getPrompt({
      name: 'narrated_clip',
      arguments: {
        subject: 'a fox in the snow',
        narration: 'The fox waits. Then it "leaps".',
        aspect_ratio: '9:16',
        image_model: 'pixel-lite',
      },
    });
    const text = promptText(result);
    expect(text).toContain('a fox in the snow');
    expect(text).toContain('`image_generate` with {"model":"pixel-lite"');
    expect(text).toContain('"aspect_ratio":"9:16"');
    expect(text).toContain('`speech_generate` with {"text":"The fox waits. Then it \\"leaps\\"."}');
    // Only the model not given is picked.
    expect(text).toContain('Pick a video model: `models_list` with {"kind":"video"}');
    expect(text).not.toContain('{"kind":"image"}');
  });

  it('check_spending reads usage, and prices a planned job when one is given', async () => {
    const plain = promptText(await h.client.getPrompt({ name: 'check_spending', arguments: {} }));
    expect(plain).toContain('`usage_get` with {}');
    expect(plain).not.toContain('models_get');
    const planned = promptText(
      await h.client.getPrompt({ name: 'check_spending', arguments: { plan: '200 images with pixel-lite' } }),
    );
    expect(planned).toContain('Next I plan: 200 images with pixel-lite');
    expect(planned).toContain('`models_get` with {"id":"<model id>"}');
  });

  it('get_started tours the tools this connection lists, all of them or one toolset', async () => {
    const media = promptText(
      await h.client.getPrompt({ name: 'get_started', arguments: { toolset: 'media' } }),
    );
    expect(media).toContain('`image_generate`');
    expect(media).not.toContain('`chat`');
    const all = promptText(await h.client.getPrompt({ name: 'get_started' }));
    expect(all).toContain('- models: `models_list`, `models_get`');
    expect(all).toContain('`chat`');
  });

  it('refuses a missing required argument, naming it and what it is for', async () => {
    await expect(h.client.getPrompt({ name: 'compare_models', arguments: {} })).rejects.toThrow(
      /Prompt "compare_models" needs `question` \(the question to put to each model\)/,
    );
    await expect(h.client.getPrompt({ name: 'narrated_clip', arguments: { subject: '' } })).rejects.toThrow(
      /needs `subject`/,
    );
  });

  it('refuses bad values with the argument and the rule', async () => {
    await expect(
      h.client.getPrompt({ name: 'summarize_video', arguments: { url: 'ftp://example.com/video' } }),
    ).rejects.toThrow(/url: must be an http\(s\) link to the video/);
    await expect(
      h.client.getPrompt({ name: 'summarize_video', arguments: { url: 'https://x.com/v', style: 'poem' } }),
    ).rejects.toThrow(/style: Invalid option: expected one of "bullets"\|"paragraph"\|"outline"/);
    await expect(
      h.client.getPrompt({
        name: 'compare_models',
        arguments: { question: 'q', models: 'openai/gpt-sandbox' },
      }),
    ).rejects.toThrow(/models: name at least two models/);
    await expect(
      h.client.getPrompt({ name: 'get_started', arguments: { toolset: 'everything' } }),
    ).rejects.toThrow(/toolset: Invalid option/);
  });

  it('refuses an unknown argument and an unknown prompt, saying what exists', async () => {
    await expect(
      h.client.getPrompt({ name: 'compare_models', arguments: { question: 'q', modle: 'x' } }),
    ).rejects.toThrow(/Unknown argument `modle`\. compare_models takes: question, models\./);
    await expect(h.client.getPrompt({ name: 'write_poem' })).rejects.toThrow(
      /Unknown prompt "write_poem"\. Prompts here: compare_models, summarize_video/,
    );
  });

  it('refuses with InvalidParams, the code MCP gives bad prompt arguments', async () => {
    const error = await h.client
      .getPrompt({ name: 'compare_models', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
  });
});

describe('completion/complete', () => {
  it('completes model ids from the platform catalog, by id or by the name after the provider', async () => {
    const all = await complete(h.client, 'summarize_video', 'model', '');
    expect(all.completion.values).toContain('openai/gpt-sandbox');
    expect(all.completion.values).toContain('anthropic/claude-sandbox');
    expect(all.completion.total).toBe(all.completion.values.length);
    expect(all.completion.hasMore).toBe(false);
    const byId = await complete(h.client, 'summarize_video', 'model', 'openai/');
    expect(byId.completion.values).toEqual(['openai/gpt-sandbox', 'openai/gpt-sandbox-mini']);
    const byName = await complete(h.client, 'summarize_video', 'model', 'CLAUDE');
    expect(byName.completion.values).toEqual(['anthropic/claude-sandbox']);
    expect((await complete(h.client, 'summarize_video', 'model', 'zzz')).completion.values).toEqual([]);
  });

  it('completes image and video model ids from their own catalogs', async () => {
    h.sandbox.clearRequests();
    const image = await complete(h.client, 'narrated_clip', 'image_model', 'pix');
    expect(image.completion.values).toEqual(['pixel-lite']);
    const video = await complete(h.client, 'narrated_clip', 'video_model', 'video');
    expect(video.completion.values).toEqual(['sandbox/video-lite', 'sandbox/video-pro']);
    const paths = h.sandbox.requests.map((request) => request.path);
    expect(paths).toEqual(['/api/v1/images/models', '/api/v1/video-models']);
  });

  it('completes the last id of a model list, keeping the ones typed and leaving them out', async () => {
    const result = await complete(h.client, 'compare_models', 'models', 'openai/gpt-sandbox, openai/');
    expect(result.completion.values).toEqual(['openai/gpt-sandbox, openai/gpt-sandbox-mini']);
  });

  it('reads each catalog once for a while per tenant, and again for another tenant', async () => {
    const first = await startHarness({ sharedSandbox: h.sandbox, tenant: 'cache-a' });
    const second = await startHarness({ sharedSandbox: h.sandbox, tenant: 'cache-b' });
    try {
      h.sandbox.clearRequests();
      await complete(first.client, 'summarize_video', 'model', 'o');
      await complete(first.client, 'summarize_video', 'model', 'op');
      await complete(first.client, 'compare_models', 'models', 'an');
      const catalogReads = () => h.sandbox.requests.filter((request) => request.path === '/api/v1/models');
      expect(catalogReads()).toHaveLength(1);
      await complete(second.client, 'summarize_video', 'model', 'o');
      expect(catalogReads()).toHaveLength(2);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('keeps reading the catalog for the next keystroke when the client cancels the completion that started it', async () => {
    const typing = await startHarness({ sharedSandbox: h.sandbox, tenant: 'cache-typing' });
    try {
      h.sandbox.faults.add({ match: { path: '/api/v1/models' }, latencyMs: 300 });
      const stale = new AbortController();
      const first = typing.client
        .complete(
          { ref: { type: 'ref/prompt', name: 'summarize_video' }, argument: { name: 'model', value: 'o' } },
          { signal: stale.signal },
        )
        .catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stale.abort();
      const next = await complete(typing.client, 'summarize_video', 'model', 'openai/gpt-sandbox-');
      expect(next.completion.values).toEqual(['openai/gpt-sandbox-mini']);
      expect(await first).toBeInstanceOf(Error);
    } finally {
      await typing.close();
    }
  });

  it('suggests nothing, without an error, when the catalog cannot be read', async () => {
    const sandbox = await startSandbox({ quiet: true });
    const down = await startHarness({ sharedSandbox: sandbox, tenant: 'cache-down' });
    await sandbox.close();
    try {
      const result = await complete(down.client, 'summarize_video', 'model', 'o');
      expect(result.completion).toEqual({ values: [], total: 0, hasMore: false });
    } finally {
      await down.close();
    }
  });

  it('completes toolset names: those with tools in this build', async () => {
    const all = await complete(h.client, 'get_started', 'toolset', '');
    expect(all.completion.values).toEqual(expect.arrayContaining(['models', 'text', 'media', 'account']));
    expect(all.completion.values).not.toContain('all');
    expect((await complete(h.client, 'get_started', 'toolset', 'Me')).completion.values).toEqual(['media']);
  });

  it('completes enum arguments from their schema', async () => {
    expect((await complete(h.client, 'summarize_video', 'style', 'p')).completion.values).toEqual([
      'paragraph',
    ]);
    expect((await complete(h.client, 'narrated_clip', 'aspect_ratio', '')).completion).toEqual({
      values: ['16:9', '9:16', '1:1'],
      total: 3,
      hasMore: false,
    });
    // A free-text argument has nothing to suggest.
    expect((await complete(h.client, 'compare_models', 'question', 'Why')).completion.values).toEqual([]);
  });

  it('completes the kind and id parts of the model resource template', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'orbit://models/{kind}/{id}' };
    const kinds = await h.client.complete({ ref, argument: { name: 'kind', value: 'e' } });
    expect(kinds.completion.values).toEqual(['embedding']);
    const ids = await h.client.complete({
      ref,
      argument: { name: 'id', value: 'tts' },
      context: { arguments: { kind: 'audio' } },
    });
    expect(ids.completion.values).toEqual(['tts-mini', 'tts-studio']);
  });

  it('refuses an unknown prompt, argument or resource template with what exists', async () => {
    await expect(complete(h.client, 'test_prompt_with_arguments', 'arg1', 'x')).rejects.toThrow(
      /Unknown prompt "test_prompt_with_arguments"/,
    );
    await expect(complete(h.client, 'summarize_video', 'lang', 'e')).rejects.toThrow(
      /Prompt "summarize_video" has no argument "lang"; it takes: url, style, model\./,
    );
    await expect(
      h.client.complete({
        ref: { type: 'ref/resource', uri: 'orbit://nothing/{x}' },
        argument: { name: 'x', value: '' },
      }),
    ).rejects.toThrow(/Unknown resource template orbit:\/\/nothing\/\{x\}/);
  });
});
