import { z } from 'zod';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { AudioOut, audioText, settleAudio } from './audio.js';
import { filesContent, receiving } from './shared.js';

export default defineTool({
  name: 'speech_generate',
  title: 'Text to speech',
  description:
    'Text to speech: read text aloud, narration, voiceover in a chosen voice; saves MP3 or WAV audio. Past max_wait_s: run_id for job_status. Music: music_generate.',
  toolset: 'media',
  long: 'job',
  view: 'player',
  credential: 'api_key',
  input: z.object({
    text: z.string().min(1),
    model: z.string().optional().describe('models_list kind=audio'),
    voice: z.string().optional(),
    format: z.enum(['mp3', 'wav', 'opus', 'flac']).optional(),
    options: z.record(z.string(), z.unknown()).optional().describe('other model fields'),
    stream: z.boolean().default(false),
    max_wait_s: MaxWait,
  }),
  output: AudioOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    ctx.progress.report(`synthesizing ${args.text.length} characters`);
    // The common speech route can stream but shows no voice controls (spec 2 §4.7); the platform's own
    // route takes them. Voice controls win over streaming, so they are never silently dropped.
    const request =
      args.stream && !args.options
        ? {
            path: '/api/v1/audio/speech',
            body: {
              model: args.model,
              input: args.text,
              voice: args.voice,
              stream: true,
              response_format: args.format,
            },
          }
        : {
            path: '/api/tts',
            apiKeyHeader: 'x-api-key' as const,
            body: {
              ...args.options,
              text: args.text,
              model: args.model,
              voice: args.voice,
              response_format: args.format,
            },
          };
    const res = await ctx.api.bytes({
      method: 'POST',
      ...request,
      headers: { accept: 'audio/*, application/json' },
      onBytes: receiving(ctx, 'receiving audio'),
    });
    return settleAudio(ctx, res, { model: args.model, maxWaitS: args.max_wait_s });
  },
  cost: {
    spent: (r) => r.cost,
    // A job still running keeps its reservation: the platform's status reply states no cost, so it
    // holds until the job fails (released) or the reservation expires (24 h).
    deferred: (r) => (r.status === 'pending' && r.run_id ? { jobId: r.run_id } : undefined),
  },
  text: audioText,
  content: (r) => filesContent([r]),
});
