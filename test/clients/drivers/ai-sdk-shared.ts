/**
 * What the AI SDK drivers share: a mock model that makes one tool call and reads back what the
 * tool returned, the way a provider would see it. `ai` 6 and 7 differ only in type names here.
 */
import { type Called, isRecord } from '../lib/session.js';

/** The last tool result in a model prompt, read as the model sees it. */
export function readToolResult(prompt: readonly unknown[]): Called | undefined {
  for (const message of [...prompt].reverse()) {
    if (!isRecord(message) || message.role !== 'tool' || !Array.isArray(message.content)) continue;
    const part = message.content.find((item) => isRecord(item) && item.type === 'tool-result');
    if (!isRecord(part) || !isRecord(part.output)) continue;
    return readOutput(part.output);
  }
  return undefined;
}

function readOutput(output: Record<string, unknown>): Called {
  const isError = String(output.type).startsWith('error');
  if (output.type !== 'content' || !Array.isArray(output.value)) {
    const value = output.value;
    return { isError, text: typeof value === 'string' ? value : JSON.stringify(value), images: 0 };
  }
  const parts = output.value.filter(isRecord);
  return {
    isError,
    text: parts
      .filter((part) => part.type === 'text')
      .map((part) => String(part.text))
      .join('\n'),
    // ai 7 passes images on as `file` parts with an image media type; ai 6 as `image-data`.
    images: parts.filter(
      (part) =>
        part.type === 'image-data' || (part.type === 'file' && String(part.mediaType).startsWith('image/')),
    ).length,
  };
}

/** `isError` of the MCP result behind a step's tool result (the model may see it only as text). */
export function mcpIsError(output: unknown): boolean {
  return isRecord(output) && output.isError === true;
}

export const NO_PROGRESS = 'the AI SDK MCP client has no progress callback';
export const CALL_NOTE = 'via mock model';
