/**
 * What scripts/ci-container.sh asks of running containers, as a real MCP client over HTTP:
 *   call URL                 initialize, then one `chat` tools/call; prints the answer
 *   call-during URL          as `call`, and prints "progress" on the first progress notification
 *                            (the CI script sends SIGTERM then): the call must still finish
 *   across URL_A URL_B       a session opened on replica A, one call on A, then the same session
 *                            used on replica B (shared through the store): one call served by each
 * Exits non-zero with the reason when a reply is missing, an error, or not the tool's answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const CHAT = {
  name: 'chat',
  arguments: { model: 'openai/gpt-sandbox', prompt: 'Say hello from a container in five words.' },
};

function fail(message: string): never {
  console.error(`container check failed: ${message}`);
  process.exit(1);
}

async function callChat(client: Client, where: string, onFirstProgress?: () => void): Promise<string> {
  let told = false;
  const result = await client.callTool(CHAT, CallToolResultSchema, {
    onprogress: () => {
      if (told || !onFirstProgress) return;
      told = true;
      onFirstProgress();
    },
    timeout: 60_000,
  });
  const parsed = CallToolResultSchema.parse(result);
  const text = parsed.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (parsed.isError) fail(`chat on ${where} answered with an error: ${text}`);
  if (!text.trim()) fail(`chat on ${where} answered with no text`);
  if (onFirstProgress && !told) fail(`chat on ${where} sent no progress before its result`);
  return text;
}

async function connect(
  url: string,
  sessionId?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'orbit-mcp-container-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), sessionId ? { sessionId } : {});
  await client.connect(transport);
  return { client, transport };
}

const [mode, first, second] = process.argv.slice(2);
if (!first) fail('usage: container-check.ts call|call-during|across URL [URL_B]');
if (mode === 'call' || mode === 'call-during') {
  const { client } = await connect(first);
  const text = await callChat(
    client,
    first,
    mode === 'call-during' ? () => console.log('progress') : undefined,
  );
  console.log(`answer: ${text.split('\n')[0]!.slice(0, 160)}`);
  if (mode === 'call') {
    // The MCP Apps views ship in the image: one read proves dist/views was copied.
    const read = await client.readResource({ uri: 'ui://orbit/gallery' });
    const view = read.contents[0];
    if (!view || !('text' in view) || !view.text.includes('<html'))
      fail('ui://orbit/gallery did not read as HTML');
    console.log(`view: ui://orbit/gallery, ${Math.round(view.text.length / 1024)} KiB`);
  }
  await client.close();
} else if (mode === 'across' && second) {
  const a = await connect(first);
  const sessionId = a.transport.sessionId ?? fail(`replica A (${first}) opened no session`);
  console.log(`A answered: ${(await callChat(a.client, first)).split('\n')[0]!.slice(0, 120)}`);
  // Replica B has never seen this session: it finds it in the shared store.
  const b = await connect(second, sessionId);
  b.transport.setProtocolVersion(a.transport.protocolVersion ?? '2025-11-25');
  console.log(`B answered: ${(await callChat(b.client, second)).split('\n')[0]!.slice(0, 120)}`);
  console.log(`session ${sessionId.slice(0, 8)}… served by both replicas`);
  await b.client.close();
  await a.client.close();
} else {
  fail(`unknown mode "${mode}"`);
}
