import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll } from 'vitest';
import {
  SANDBOX_DEMO_KEY,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/index.js';

export const DEMO_AUTH = { authorization: `Bearer ${SANDBOX_DEMO_KEY}` };

/** Starts one sandbox for the file; the getter is valid inside tests. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

export function post(
  sb: Sandbox,
  path: string,
  body: unknown,
  headers: Record<string, string> = DEMO_AUTH,
): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface Frame {
  event?: string;
  data: string;
}

/** Reads a whole SSE reply into frames (data lines joined, `[DONE]` kept as a frame). */
export async function readFrames(res: Response): Promise<Frame[]> {
  const frames: Frame[] = [];
  const parser = createParser({
    onEvent: (m) => frames.push(m.event ? { event: m.event, data: m.data } : { data: m.data }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body ?? []) parser.feed(decoder.decode(chunk, { stream: true }));
  return frames;
}

/** Frames parsed as JSON, `[DONE]` left out. */
export function jsonFrames(frames: Frame[]): Record<string, unknown>[] {
  return frames.filter((f) => f.data !== '[DONE]').map((f) => JSON.parse(f.data) as Record<string, unknown>);
}

export const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'openai/gpt-sandbox',
  messages: [{ role: 'user', content: 'Tell me about orbits' }],
  ...extra,
});
