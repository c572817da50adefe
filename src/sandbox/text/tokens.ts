import { isRecord } from '../util.js';

/** A deterministic token estimate: one token per four characters, rounded up. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The text of a message's content in any of the three formats: a string, or blocks/parts of type
 * text, input_text or output_text. Images count as a short placeholder.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string') return part.text;
      if (typeof part.content === 'string') return part.content;
      if (part.type === 'image' || part.type === 'image_url' || part.type === 'input_image') return '[image]';
      return '';
    })
    .join('\n');
}

/** Splits text into stream deltas of two words each (keeping whitespace), so replies stream in many chunks. */
export function chunkText(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 2) chunks.push(words.slice(i, i + 2).join(''));
  return chunks;
}
