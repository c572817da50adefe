import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { LIMITS, readMediaInput } from '../../src/files/input.js';
import { MaxWait } from '../../src/jobs/follow.js';
import { defineTool, type ToolContext } from '../../src/mcp/define-tool.js';
import { nextCall, runNext, sayNext } from '../../src/next-call.js';
import { filesContent } from './shared.js';
import { acceptVideo, awaitVideo, submitVideo, VideoOut, videoText } from './video-jobs.js';
import { videoPrice } from './video-price.js';

const MODES = ['text-to-video', 'image-to-video', 'reference-to-video', 'video-edit'] as const;

const Input = z.object({
  model: z.string().describe('models_list kind=video'),
  prompt: z.string(),
  duration: z.string().optional().describe('seconds'),
  aspect_ratio: z.string().optional(),
  resolution: z.enum(['480p', '720p', '1080p']).optional(),
  image: z.string().optional().describe('start frame: URL, data URL or path ≤4 MB'),
  video: z.string().optional().describe('source video, same forms'),
  negative_prompt: z.string().optional(),
  seed: z.number().int().optional(),
  cfg_scale: z.number().optional().describe('0..1'),
  fps: z.number().int().optional().describe('5..24'),
  generate_audio: z.boolean().optional(),
  mode: z.enum(MODES).optional(),
  options: z.record(z.string(), z.unknown()).optional().describe('other model fields'),
  wait: z.boolean().default(true),
  max_wait_s: MaxWait,
  download: z.boolean().default(true),
});

/** The typed model fields (spec 2 §4.6) by argument, with their wire names. */
const WIRE = {
  negative_prompt: 'negative_prompt',
  seed: 'seed',
  cfg_scale: 'cfg_scale',
  fps: 'frames_per_second',
  generate_audio: 'generateAudio',
  mode: 'mode',
} as const;

/** Spec 2 §4.6 ranges, checked before anything is sent. */
const RANGES: Record<string, [number, number]> = { cfg_scale: [0, 1], frames_per_second: [5, 24] };

const WIRE_NAMES: readonly string[] = Object.values(WIRE);

/**
 * `options` merged with the typed model fields under their wire names; an explicit typed argument
 * wins over the same field in `options`. The spec's ranges and modes are checked on the merged
 * value, so an out-of-range value is refused before sending whichever way it came.
 */
function modelFields(args: z.infer<typeof Input>): Record<string, unknown> {
  for (const key of Object.keys(args.options ?? {})) {
    // Other arguments (and the media fields they become) only come as arguments; a typed field's
    // wire name may also come in options (seed, mode, ...), where the typed argument wins.
    if (
      (key in Input.shape && !WIRE_NAMES.includes(key)) ||
      ['imageUrl', 'imageDataUrl', 'videoUrl', 'videoDataUrl'].includes(key)
    ) {
      throw new InputError(`options.${key} duplicates a named argument.`, {
        fix: `Pass ${key} as its own argument.`,
      });
    }
  }
  const fields: Record<string, unknown> = { ...args.options };
  for (const [arg, wire] of Object.entries(WIRE)) {
    const value = args[arg as keyof typeof WIRE];
    if (value !== undefined) fields[wire] = value;
  }
  for (const [wire, [min, max]] of Object.entries(RANGES)) {
    const value = fields[wire];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= min && value <= max)) {
      const arg = argumentFor(args, wire);
      throw new InputError(
        `${arg} must be between ${min} and ${max} (spec 2 §4.6); got ${JSON.stringify(value)}.`,
        {
          param: arg,
          fix: `Pass ${arg} from ${min} to ${max}.`,
        },
      );
    }
  }
  if (fields.mode !== undefined && !(MODES as readonly unknown[]).includes(fields.mode)) {
    throw new InputError(`options.mode must be one of ${MODES.join(', ')}.`, { param: 'options.mode' });
  }
  return fields;
}

/** The argument a wire field came from: the typed one when given, else its `options` key. */
function argumentFor(args: z.infer<typeof Input>, wire: string): string {
  const typed = Object.entries(WIRE).find(([, w]) => w === wire)?.[0] as keyof typeof WIRE | undefined;
  return typed && args[typed] !== undefined ? typed : `options.${wire}`;
}

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
  description:
    'Make or create a short video clip or film from text, or animate an image or photo; saves the MP4. Past max_wait_s: run id for video_status; then video_extend.',
  toolset: 'media',
  long: 'job',
  view: 'player',
  credential: 'api_key',
  input: Input,
  output: VideoOut,
  nature: 'spend',
  check: () => nextCall('video_recent'),
  async run(args, ctx) {
    const body = {
      ...modelFields(args),
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
  cost: {
    price: (args, ctx) => {
      modelFields(args); // refused before the catalog read as well
      return videoPrice(ctx, args.model, args);
    },
    spent: (r) => r.cost?.final ?? r.cost?.estimate,
  },
  text: videoText,
  content: (r) => filesContent([r]),
});
