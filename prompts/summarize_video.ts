import { z } from 'zod';
import { definePrompt } from '../src/mcp/define-prompt.js';
import { modelId } from '../tools/models/completions.js';
import { call, steps } from './shared.js';

const STYLES = {
  bullets: 'Summarise this video transcript in 5 to 8 bullet points, most important first.',
  paragraph: 'Summarise this video transcript in one paragraph of at most 120 words.',
  outline: 'Summarise this video transcript as an outline of its parts, one line each, in order.',
} as const;

export default definePrompt({
  name: 'summarize_video',
  title: 'Summarise a video',
  description: 'Transcribe a video link (YouTube, TikTok, X...) and summarise what it says.',
  arguments: z.object({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) link to the video' })
      .describe('the video link'),
    style: z.enum(['bullets', 'paragraph', 'outline']).default('bullets').describe('shape of the summary'),
    model: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('text model that writes the summary; empty: one with a long context'),
  }),
  tools: ['transcribe_video_links', 'models_list', 'chat'],
  complete: { model: modelId('text') },
  render: ({ url, style, model }) =>
    steps(
      `Summarise this video for me: ${url}`,
      `Get its transcript: ${call('transcribe_video_links', { urls: [url] })}. If the link fails, say why and stop.`,
      !model &&
        `Choose a text model whose context fits the transcript: ${call('models_list', { kind: 'text', detailed: true })}.`,
      `Summarise it: ${call('chat', { model: model ?? '<model id>', system: STYLES[style], prompt: '<the whole transcript>' })}.`,
      'Give me the summary, then one line with what the two calls cost.',
    ),
});
