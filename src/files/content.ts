import { basename } from 'node:path';
import { notePayload } from '../heap.js';
import type { Files } from './files.js';

/** Inline media caps: a result never floods the context; bigger files travel as links. */
const INLINE_MAX_BYTES = 768 * 1024;
const INLINE_TOTAL_BYTES = 1536 * 1024;

/** Content sent beside structuredContent. */
export type MediaContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/**
 * For each of the caller's saved files (by `orbit://media/{id}` URI): small images and audio inline
 * (within the caps), and every file as a `resource_link`, described by its path on disk when the
 * client shares this machine. A URI that is not one of the caller's files yields nothing.
 */
export async function mediaContent(uris: readonly string[], files: Files): Promise<MediaContent[]> {
  const out: MediaContent[] = [];
  let inlined = 0;
  for (const uri of uris) {
    const found = await files.open(uri.slice(uri.lastIndexOf('/') + 1));
    if (!found) continue;
    const { file, data } = found;
    notePayload(data.length);
    const kind = file.mimeType.startsWith('image/')
      ? 'image'
      : file.mimeType.startsWith('audio/')
        ? 'audio'
        : '';
    if (kind && data.length <= INLINE_MAX_BYTES && inlined + data.length <= INLINE_TOTAL_BYTES) {
      out.push({ type: kind, data: data.toString('base64'), mimeType: file.mimeType });
      inlined += data.length;
    }
    const name = file.path ? basename(file.path) : file.id;
    out.push({
      type: 'resource_link',
      uri: file.uri,
      name,
      mimeType: file.mimeType,
      description: `${file.path ? `${file.path} ` : ''}(${data.length} bytes)`,
    });
  }
  return out;
}
