import { z } from 'zod';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { filesContent } from './shared.js';
import { acceptVideo, awaitVideo, submitVideo, VideoOut, videoText } from './video-jobs.js';

export default defineTool({
  name: 'video_extend',
  title: 'Extend a video',
  description:
    'Extend a finished video: continue the clip, longer by a few seconds, with a prompt (extendable family); other models: video_generate with video.',
  toolset: 'media',
  long: 'job',
  view: 'player',
  credential: 'api_key',
  input: z.object({
    run_id: z.string(),
    index: z.number().int().min(0).max(3).default(0),
    prompt: z.string().optional(),

    max_wait_s: MaxWait,
  }),
  output: VideoOut,
  nature: 'spend',
  check: () => nextCall('video_recent'),
  async run(args, ctx) {
    ctx.progress.report(`asking to extend ${args.run_id}`);
    // The reference documents extend with `x-api-key` (issue 32).
    const res = await submitVideo(
      ctx,
      '/api/generate-video/extend',
      { runId: args.run_id, index: args.index, prompt: args.prompt },
      { apiKeyHeader: 'x-api-key' },
    );
    const known = acceptVideo(ctx, res.data, res.requestId, undefined);
    return awaitVideo(ctx, known, { maxWaitS: args.max_wait_s, download: true });
  },
  cost: {
    spent: (r) => r.cost?.final ?? r.cost?.estimate,
  },
  text: videoText,
  content: (r) => filesContent([r]),
});
