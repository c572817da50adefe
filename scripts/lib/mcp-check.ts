/**
 * A real MCP client's checks of a running orbit-mcp, shared by the CI scripts that start one in a
 * container (scripts/container-check.ts) or in pods played from the Kubernetes manifests
 * (scripts/kube-check.ts). Each failure ends the process with the reason.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** A short answer: its reservation (by max_tokens) stays a fraction of a cent, within any spend cap CI sets. */
const CHAT = {
  name: 'chat',
  arguments: {
    model: 'openai/gpt-sandbox',
    prompt: 'Say hello from a container in five words.',
    max_tokens: 64,
  },
};

/**
 * A chat whose answer streams longest in the sandbox (over a second, three times CHAT's): the
 * sandbox repeats the prompt's first 200 characters and streams two words every 20 ms, so the
 * prompt is 100 one-letter words. For a call that must still run when the server is signalled.
 */
export const LONG_CHAT = {
  name: 'chat',
  arguments: { ...CHAT.arguments, prompt: 'a '.repeat(100), max_tokens: 160 },
};

export function fail(message: string): never {
  console.error(`check failed: ${message}`);
  process.exit(1);
}

/** The text parts of a tool result, joined. */
export function resultText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** One `chat` call; `onFirstProgress` runs at its first progress notification (which must come). */
export async function callChat(
  client: Client,
  where: string,
  onFirstProgress?: () => void,
  request: typeof CHAT = CHAT,
): Promise<string> {
  let told = false;
  const result = await client.callTool(request, CallToolResultSchema, {
    onprogress: () => {
      if (told || !onFirstProgress) return;
      told = true;
      onFirstProgress();
    },
    timeout: 60_000,
  });
  const parsed = CallToolResultSchema.parse(result);
  const text = resultText(parsed);
  if (parsed.isError) fail(`chat on ${where} answered with an error: ${text}`);
  if (!text.trim()) fail(`chat on ${where} answered with no text`);
  if (onFirstProgress && !told) fail(`chat on ${where} sent no progress before its result`);
  return text;
}

/** The MCP Apps views ship in the image: one read proves dist/views is there. */
export async function readGallery(client: Client): Promise<string> {
  const read = await client.readResource({ uri: 'ui://orbit/gallery' });
  const view = read.contents[0];
  if (!view || !('text' in view) || !view.text.includes('<html'))
    fail('ui://orbit/gallery did not read as HTML');
  return `ui://orbit/gallery, ${Math.round(view.text.length / 1024)} KiB`;
}

export async function connect(
  url: string,
  options: { sessionId?: string; fetch?: StreamableHTTPClientTransportOptions['fetch'] } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'orbit-mcp-ci-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), options);
  await client.connect(transport);
  return { client, transport };
}

/** The first line of a reply, short enough for a CI log. */
export const firstLine = (text: string, length = 120) => text.split('\n')[0]!.slice(0, length);
