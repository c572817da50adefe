import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { LIMITS, readMediaInput } from '../../src/files/input.js';
import { MaxWait } from '../../src/jobs/follow.js';
import { runNext, sayNext } from '../../src/jobs/next.js';
import { defineTool, type ToolContext } from '../../src/mcp/define-tool.js';
import { filesContent } from './shared.js';
import { acceptVideo, awaitVideo, submitVideo, VideoOut, videoText } from './video-jobs.js';
import { videoPrice } from './video-price.js';

const Input = z.object({
  model: z.string().describe('models_list kind=video'),
  prompt: z.string(),
  duration: z.string().optional().describe('seconds'),
  aspect_ratio: z.string().optional(),
  resolution: z.enum(['480p', '720p', '1080p']).optional(),
  image: z.string().optional().describe('start frame: URL, data URL or path ≤4 MB'),
  video: z.string().optional().describe('source video, same forms'),

  options: z.record(z.string(), z.unknown()).optional().describe('other model fields'),
  wait: z.boolean().default(true),
  max_wait_s: MaxWait,
  download: z.boolean().default(true),
});

/** Image and video inputs: URLs pass through; local files and data URLs go inline, 4 MB at most. */
async function mediaFields(ctx: ToolContext, args: z.infer<typeof Input>): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [arg, urlField, dataField] of [
    ['image', 'imageUrl', 'imageDataUrl'],
    ['video', 'videoUrl', 'videoDataUrl'],
  ] as const) {
    const ref = args[arg];
    if (!ref) continue;
    const input = await readMediaInput(ref, ctx.files, {
      maxBytes: LIMITS.videoInput,
      purpose: 'video generation',
      argument: arg,
    });
    if (input.kind === 'url') fields[urlField] = input.url;
    else fields[dataField] = input.dataUrl;
  }
  return fields;
}

export default defineTool({
  name: 'video_generate',
  title: 'Generate a video',
  description: 'Text or image to video; waits, saves the MP4; past max_wait_s a run id for video_status.',
  toolset: 'media',
  view: 'player',
  credential: 'api_key',
  input: Input,
  output: VideoOut,
  nature: 'spend',
  async run(args, ctx) {
    for (const key of Object.keys(args.options ?? {})) {
      if (key in Input.shape || ['imageUrl', 'imageDataUrl', 'videoUrl', 'videoDataUrl'].includes(key)) {
        throw new InputError(`options.${key} duplicates a named argument.`, {
          fix: `Pass ${key} as its own argument.`,
        });
      }
    }
    const body = {
      ...args.options,
      model: args.model,
      prompt: args.prompt,
      duration: args.duration,
      aspect_ratio: args.aspect_ratio,
      resolution: args.resolution,

      ...(await mediaFields(ctx, args)),
    };
    ctx.progress.report('submitting the video job');
    const res = await submitVideo(ctx, '/api/generate-video', body);
    const known = acceptVideo(ctx, res.data, res.requestId, args.model);
    if (!args.wait) {
      return {
        run_id: known.runId,
        status: 'IN_QUEUE',
        cost: (await ctx.jobs.get(known.runId))?.cost,
        next: sayNext(runNext('video_status', known.runId)),
      };
    }
    return awaitVideo(ctx, known, { maxWaitS: args.max_wait_s, download: args.download });
  },
  price: (args, ctx) => videoPrice(ctx, args.model, args),
  spent: (r) => r.cost?.final ?? r.cost?.estimate,
  text: videoText,
  content: (r) => filesContent([r]),
});
