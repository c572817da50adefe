import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { AudioOut, audioText, settleAudio } from './audio.js';
import { filesContent, receiving } from './shared.js';

export default defineTool({
  name: 'music_generate',
  title: 'Generate music',
  description:
    'Compose music from a prompt: song, jingle, melody, soundtrack, background track (models_list kind=audio); saves the audio. Spoken words: speech_generate.',
  toolset: 'media',
  long: 'job',
  view: 'player',
  credential: 'api_key',
  input: z.object({
    prompt: z.string(),
    model: z.string(),
  }),
  output: AudioOut,
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    ctx.progress.report(`composing with ${args.model}`);
    // Music goes through the common speech route; the voice is ignored but must be a string.
    const res = await ctx.api.bytes({
      method: 'POST',
      path: '/api/v1/audio/speech',
      body: { model: args.model, input: args.prompt, voice: 'default' },
      headers: { accept: 'audio/*, application/json' },
      onBytes: receiving(ctx, 'receiving the track'),
    });
    return settleAudio(ctx, res, { model: args.model, maxWaitS: 50 });
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
