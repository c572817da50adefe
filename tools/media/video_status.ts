import { z } from 'zod';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { filesContent } from './shared.js';
import { awaitVideo, VideoOut, videoText } from './video-jobs.js';

export default defineTool({
  name: 'video_status',
  title: 'Video job status',
  description:
    'Video done yet? Check or wait for a video render by run id; fetch the MP4 when finished. Free. Id lost when a call timed out: video_recent. Other runs: job_status.',
  toolset: 'media',
  long: 'job',
  view: 'player',
  credential: 'api_key',
  input: z.object({
    run_id: z.string(),
    max_wait_s: MaxWait,
  }),
  output: VideoOut,
  nature: 'read',
  async run(args, ctx) {
    const job = await ctx.jobs.get(args.run_id);
    return awaitVideo(
      ctx,
      { runId: args.run_id, model: job?.model },
      { maxWaitS: args.max_wait_s, download: true },
    );
  },
  text: videoText,
  content: (r) => filesContent([r]),
});
