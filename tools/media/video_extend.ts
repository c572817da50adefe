import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool, SPEND } from '../../src/mcp/define-tool.js';
import { filesContent, MaxWait, recordJob } from './shared.js';
import { Accepted, awaitVideo, VideoOut, videoText } from './video-jobs.js';

export default defineTool({
  name: 'video_extend',
  title: 'Extend a video',
  description:
    'Continues a finished run of the extendable video family; waits like video_generate. Other models: video_generate with video.',
  toolset: 'media',
  credential: 'api_key',
  input: z.object({
    run_id: z.string(),
    index: z.number().int().min(0).max(3).default(0),
    prompt: z.string().optional(),

    max_wait_s: MaxWait,
  }),
  output: VideoOut,
  annotations: SPEND,
  async run(args, ctx) {
    ctx.progress.report(`asking to extend ${args.run_id}`);
    const { data } = await ctx.api.request({
      method: 'POST',
      path: '/api/generate-video/extend',
      body: { runId: args.run_id, index: args.index, prompt: args.prompt },
      schema: Accepted,
    });
    const runId = data.runId ?? data.id ?? data.requestId;
    if (!runId)
      throw new InputError('The platform accepted the extension but sent no run id.', {
        fix: 'Call video_recent to find it.',
      });
    const cost = {
      ...(data.cost !== undefined ? { estimate: data.cost } : {}),
      ...(data.remainingBalance !== undefined ? { balance: data.remainingBalance } : {}),
    };
    recordJob(ctx, { id: runId, kind: 'video', model: data.model, status: 'pending', cost });
    return awaitVideo(
      ctx,
      { runId, model: data.model, estimate: data.cost, balance: data.remainingBalance },
      { maxWaitS: args.max_wait_s, download: true },
    );
  },
  text: videoText,
  content: (r) => filesContent([r]),
});
