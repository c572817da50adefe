import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ExtraContent } from '../mcp/define-tool.js';
import { mediaTypeOf } from './types.js';

/** Inline media caps: a result never floods the context; bigger files travel as links. */
export const INLINE_MAX_BYTES = 768 * 1024;
export const INLINE_TOTAL_BYTES = 1536 * 1024;

export interface OutputFile {
  uri: string;
  path: string;
}

/**
 * Small images as image content and small audio as audio content (within the caps), and every
 * file as a `resource_link` to `orbit://media/{id}` whose description is its path on disk.
 */
export function mediaContent(files: readonly OutputFile[]): ExtraContent[] {
  const out: ExtraContent[] = [];
  let inlined = 0;
  for (const file of files) {
    // Saved names end in the extension of the content's sniffed type.
    const mime = mediaTypeOf(Buffer.alloc(0), undefined, file.path).mimeType;
    const size = fileSize(file.path);
    const inlineKind = mime.startsWith('image/') ? 'image' : mime.startsWith('audio/') ? 'audio' : undefined;
    if (
      inlineKind &&
      size !== undefined &&
      size <= INLINE_MAX_BYTES &&
      inlined + size <= INLINE_TOTAL_BYTES
    ) {
      out.push({ type: inlineKind, data: readFileSync(file.path).toString('base64'), mimeType: mime });
      inlined += size;
    }
    out.push({
      type: 'resource_link',
      uri: file.uri,
      name: basename(file.path),
      mimeType: mime,
      description: `${file.path}${size !== undefined ? ` (${size} bytes)` : ''}`,
    });
  }
  return out;
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
