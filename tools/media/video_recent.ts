import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { runNext } from '../../src/next-call.js';
import { leftOutNote, usableList } from '../../src/replies/usable-list.js';

/** The recover route's reply is not specified; the usual container and id keys are accepted. */
const Run = z.looseObject({
  runId: z.string().optional(),
  requestId: z.string().optional(),
  id: z.string().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  prompt: z.string().nullish(),
  // The platform's reference shows `createdAt` and `conversationUUID` on each run (issue 32).
  createdAt: z.string().nullish().catch(undefined),
  conversationUUID: z.string().nullish().catch(undefined),
  videoUrl: z.string().nullish(),
  error: z.string().nullish(),
});
// The lists are read one element at a time: a run that cannot be used is left out and named.
const Reply = z.looseObject({
  runs: z.array(z.unknown()).optional(),
  data: z.array(z.unknown()).optional(),
  videos: z.array(z.unknown()).optional(),
  jobs: z.array(z.unknown()).optional(),
});

/** One run as the result gives it; listed as its id only (tokens), every field passes. */
const RunOut = z.object({
  run_id: z.string(),
  model: z.string().optional(),
  status: z.string().optional(),
  prompt: z.string().optional(),
  video_url: z.string().optional(),
  created_at: z.string().optional(),
  conversation_uuid: z.string().optional(),
});
type RunOut = z.infer<typeof RunOut>;

export default defineTool({
  name: 'video_recent',
  title: 'Recent video runs',
  description: 'Recent videos, render runs newest first: finds a run id lost when a call timed out.',
  toolset: 'media',
  credential: 'api_key',
  input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
  // Loose: a `not_usable` note and each run's fields (RunOut) pass without being listed (tokens).
  output: z.looseObject({ runs: z.array(z.looseObject({ run_id: z.string() })) }),
  nature: 'read',
  async run(args, ctx) {
    const { data } = await ctx.api.request({
      method: 'GET',
      path: '/api/generate-video/recover',
      apiKeyHeader: 'x-api-key',
      schema: Reply,
    });
    const read = usableList(Run, data.runs ?? data.data ?? data.videos ?? data.jobs ?? [], {
      nameKeys: ['runId', 'requestId', 'id'],
      usable: (run) => ((run.runId ?? run.requestId ?? run.id) ? undefined : 'has no runId'),
    });
    const notUsable = leftOutNote('run', read.left_out);
    const runs = read.items.flatMap((run): RunOut[] => {
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
          ...(run.createdAt ? { created_at: run.createdAt } : {}),
          ...(run.conversationUUID ? { conversation_uuid: run.conversationUUID } : {}),
        },
      ];
    });
    return { runs: runs.slice(0, args.limit), ...(notUsable ? { not_usable: notUsable } : {}) };
  },
  text: (r) =>
    [
      r.runs.length === 0
        ? 'No recent video runs.'
        : z
            .array(RunOut)
            .catch([])
            .parse(r.runs)
            .map((run) =>
              [
                run.run_id,
                run.status,
                run.model,
                run.created_at,
                run.prompt && `"${run.prompt}"`,
                run.conversation_uuid && `(conversation ${run.conversation_uuid})`,
              ]
                .filter(Boolean)
                .join(' '),
            )
            .join('\n'),
      ...(typeof r.not_usable === 'string' ? [r.not_usable] : []),
    ].join('\n'),
});
