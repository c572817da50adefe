import { z } from 'zod';
import { runNext } from '../../src/jobs/next.js';
import { defineTool } from '../../src/mcp/define-tool.js';

/** The recover route's reply is not specified; the usual container and id keys are accepted. */
const Run = z.looseObject({
  runId: z.string().optional(),
  requestId: z.string().optional(),
  id: z.string().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  prompt: z.string().nullish(),
  createdAt: z.string().nullish(),
  videoUrl: z.string().nullish(),
  error: z.string().nullish(),
});
const Reply = z.looseObject({
  runs: z.array(Run).optional(),
  data: z.array(Run).optional(),
  videos: z.array(Run).optional(),
  jobs: z.array(Run).optional(),
});

export default defineTool({
  name: 'video_recent',
  title: 'Recent video runs',
  description: 'Recent video runs, newest first; recovers a run id lost to a timeout.',
  toolset: 'media',
  credential: 'api_key',
  input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
  output: z.object({
    runs: z.array(
      z.object({
        run_id: z.string(),
        model: z.string().optional(),
        status: z.string().optional(),
        prompt: z.string().optional(),
        video_url: z.string().optional(),
      }),
    ),
  }),
  nature: 'read',
  async run(args, ctx) {
    const { data } = await ctx.api.request({
      method: 'GET',
      path: '/api/generate-video/recover',
      schema: Reply,
    });
    const items = data.runs ?? data.data ?? data.videos ?? data.jobs ?? [];
    const runs = items.flatMap((run) => {
      const id = run.runId ?? run.requestId ?? run.id;
      if (!id) return [];
      if (run.status)
        ctx.jobs.record({
          id,
          kind: 'video',
          model: run.model,
          status: run.status,
          next: runNext('video_status', id),
        });
      return [
        {
          run_id: id,
          ...(run.model ? { model: run.model } : {}),
          ...(run.status ? { status: run.status } : {}),
          ...(run.prompt ? { prompt: run.prompt.slice(0, 200) } : {}),
          ...(run.videoUrl ? { video_url: run.videoUrl } : {}),
        },
      ];
    });
    return { runs: runs.slice(0, args.limit) };
  },
  text: (r) =>
    r.runs.length === 0
      ? 'No recent video runs.'
      : r.runs
          .map((run) =>
            `${run.run_id} ${run.status ?? ''} ${run.model ?? ''} ${run.prompt ? `"${run.prompt}"` : ''}`.trim(),
          )
          .join('\n'),
});
