import type { Context, Hono } from 'hono';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { sha256Hex } from '../util.js';

/** Generated media live behind temporary URLs (about an hour, like presigned URLs), with no auth. */
export const MEDIA_PREFIX = '/media/tmp';
const LIFETIME_MS = 60 * 60_000;

interface StoredMedia {
  data: Buffer;
  contentType: string;
  expiresAt: number;
}

const store = (ctx: SandboxContext) => ctx.state.collection<StoredMedia>('media.files');

/** Keeps the bytes and returns their absolute temporary URL. */
export function putMedia(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  data: Buffer,
  contentType: string,
): string {
  const token = `${sha256Hex(`${data.length}:${c.get('seq')}:${data.subarray(0, 64).toString('hex')}`).slice(0, 24)}`;
  store(ctx).set(token, { data, contentType, expiresAt: ctx.now() + LIFETIME_MS });
  const ext = contentType.split('/')[1]?.replace('mpeg', 'mp3').replace('x-wav', 'wav') ?? 'bin';
  return `${new URL(c.req.url).origin}${MEDIA_PREFIX}/${token}.${ext}?expires=${Math.floor((ctx.now() + LIFETIME_MS) / 1000)}`;
}

/** The stored media behind one of our URLs (used by transcription of an `audioUrl`). */
export function mediaAt(ctx: SandboxContext, url: string): StoredMedia | undefined {
  const match = new RegExp(`${MEDIA_PREFIX}/([a-f0-9]+)\\.`).exec(url);
  const found = match ? store(ctx).get(match[1] ?? '') : undefined;
  return found && found.expiresAt > ctx.now() ? found : undefined;
}

export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope(MEDIA_PREFIX, 'legacy');
  app.get(`${MEDIA_PREFIX}/:file`, (c) => {
    const token = c.req.param('file').split('.')[0] ?? '';
    const found = store(ctx).get(token);
    if (!found || found.expiresAt <= ctx.now()) {
      throw new SandboxError(
        404,
        'This media URL does not exist or has expired; generated URLs live about an hour.',
        {
          code: 'not_found',
        },
      );
    }
    return c.body(new Uint8Array(found.data), 200, {
      'Content-Type': found.contentType,
      'Content-Length': String(found.data.length),
    });
  });
}
