import { z } from 'zod';
import { defineTool, LONG_RESULT_CHARS } from '../../src/mcp/define-tool.js';
import { nextCall } from '../../src/next-call.js';
import { NumberLike } from '../../src/replies/number.js';
import { usableList } from '../../src/replies/usable-list.js';
import { FileFields, filesContent, saveBytes } from './shared.js';

const Transcript = z.looseObject({
  url: z.string(),
  success: z.boolean(),
  title: z.string().nullish(),
  transcript: z.string().nullish(),
  error: z.string().nullish(),
});
const Cost = NumberLike.optional().catch(undefined);
/** Spec 2 §2.6; each transcript is read on its own, one that cannot be read is reported as failed. */
const Reply = z.looseObject({
  transcripts: z.array(z.unknown()),
  summary: z
    .looseObject({ requested: Cost, processed: Cost, successful: Cost, failed: Cost, totalCost: Cost })
    .optional()
    .catch(undefined),
});

/** Per transcript inline; all of them in full go to a JSON file when any is longer. */
const MAX_CHARS = 6_000;

export default defineTool({
  name: 'transcribe_video_links',
  title: 'Transcribe video links',
  description:
    'Transcripts of 1-10 video links or URLs (YouTube, TikTok, others), to summarize or quote a video; $0.01 per success. Audio files: transcribe.',
  toolset: 'media',
  long: 'progress',
  resultChars: LONG_RESULT_CHARS,
  credential: 'api_key',
  input: z.object({ urls: z.array(z.string()).min(1).max(10) }),
  output: z.object({
    transcripts: z.array(
      z.object({
        url: z.string(),
        ok: z.boolean(),
        title: z.string().optional(),
        text: z.string().optional(),
        error: z.string().optional(),
      }),
    ),
    summary: z
      .object({
        successful: z.number(),
        failed: z.number(),
        total_cost: z.number(),
      })
      .partial(),
    ...FileFields,
  }),
  nature: 'spend',
  check: () => nextCall('usage_get'),
  async run(args, ctx) {
    ctx.progress.report(`fetching ${args.urls.length} transcript${args.urls.length > 1 ? 's' : ''}`);
    const { data } = await ctx.api.request({
      method: 'POST',
      path: '/api/youtube-transcribe',
      apiKeyHeader: 'x-api-key',
      body: { urls: args.urls },
      schema: Reply,
    });
    const read = usableList(Transcript, data.transcripts, { nameKeys: ['url'] });
    const transcripts = [
      ...read.items,
      ...read.left_out.map((l) => ({ url: l.name, success: false, error: `reply not usable: ${l.reason}` })),
    ] as z.infer<typeof Transcript>[];
    const cut = transcripts.some((t) => (t.transcript?.length ?? 0) > MAX_CHARS);
    const file = cut
      ? await saveBytes(ctx, Buffer.from(JSON.stringify(transcripts, null, 1)), 'application/json')
      : undefined;
    const s = data.summary ?? {};
    return {
      transcripts: transcripts.map((t) => ({
        url: t.url,
        ok: t.success,
        ...(t.title ? { title: t.title } : {}),
        ...(t.transcript
          ? { text: t.transcript.length > MAX_CHARS ? `${t.transcript.slice(0, MAX_CHARS)}…` : t.transcript }
          : {}),
        ...(t.error ? { error: t.error } : {}),
      })),
      summary: {
        ...(s.successful !== undefined ? { successful: s.successful } : {}),
        ...(s.failed !== undefined ? { failed: s.failed } : {}),
        ...(s.totalCost !== undefined ? { total_cost: s.totalCost } : {}),
      },
      ...file,
    };
  },
  cost: {
    spent: (r) => r.summary.total_cost,
  },
  untrusted: ['transcripts'],
  text: (r) =>
    [
      ...r.transcripts.map((t) =>
        t.ok ? `✓ ${t.title ?? t.url}\n${t.text ?? ''}` : `✗ ${t.url}: ${t.error ?? 'failed'}`,
      ),
      `${r.summary.successful ?? 0} of ${r.transcripts.length} transcribed; cost ${r.summary.total_cost ?? 0} USD`,
    ].join('\n\n'),
  content: (r) => filesContent([r]),
});
