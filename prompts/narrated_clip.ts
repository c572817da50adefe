import { z } from 'zod';
import { definePrompt } from '../src/mcp/define-prompt.js';
import { modelId } from '../tools/models/completions.js';
import { call, steps } from './shared.js';

const modelArgument = (kind: string) =>
  z.string().trim().min(1).optional().describe(`${kind} model id; empty: the assistant picks one`);

export default definePrompt({
  name: 'narrated_clip',
  title: 'Make a narrated clip',
  description: 'Turn a subject into a still image, animate it into a short video, and narrate it.',
  arguments: z.object({
    subject: z.string().trim().min(1).describe('what the clip shows'),
    narration: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('the words to speak; empty: the assistant writes them'),
    aspect_ratio: z.enum(['16:9', '9:16', '1:1']).default('16:9').describe('frame shape'),
    image_model: modelArgument('image'),
    video_model: modelArgument('video'),
  }),
  tools: ['models_list', 'image_generate', 'video_generate', 'video_status', 'speech_generate'],
  complete: { image_model: modelId('image'), video_model: modelId('video') },
  render: ({ subject, narration, aspect_ratio, image_model, video_model }) => {
    const picks = [!image_model && 'image', !video_model && 'video'].filter((kind) => kind !== false);
    return steps(
      `Make a short narrated clip about: ${subject}\nIt takes three paid generations; tell me what they cost in all at the end.`,
      picks.length > 0 &&
        `Pick ${picks.map((kind) => (kind === 'image' ? 'an image model' : 'a video model')).join(' and ')}: ${picks.map((kind) => call('models_list', { kind })).join(' and ')}.`,
      `Still: ${call('image_generate', { model: image_model ?? '<image model>', prompt: '<a vivid still of the subject>', aspect_ratio })}.`,
      `Motion: ${call('video_generate', { model: video_model ?? '<video model>', prompt: '<slow camera motion over the still>', image: '<the still: its path, else its uri>', aspect_ratio })}. If it returns a run_id instead, follow it: ${call('video_status', { run_id: '<run_id>' })}.`,
      `Voice: ${call('speech_generate', { text: narration ?? '<two sentences about the subject, about 8 seconds spoken>' })}.`,
      'Give me the video and the audio file. To join them: ffmpeg -i clip.mp4 -i narration.mp3 -c:v copy -c:a aac -shortest narrated.mp4',
    );
  },
});
