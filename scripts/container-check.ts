/**
 * What scripts/ci-container.sh asks of running containers, as a real MCP client over HTTP:
 *   call URL                 initialize, then one `chat` tools/call; prints the answer
 *   call-during URL          as `call`, and prints "progress" on the first progress notification
 *                            (the CI script sends SIGTERM then): the call must still finish
 *   across URL_A URL_B       a session opened on replica A, one call on A, then the same session
 *                            used on replica B (shared through the store): one call served by each
 * Exits non-zero with the reason when a reply is missing, an error, or not the tool's answer.
 */
import { callChat, connect, fail, firstLine, readGallery } from './lib/mcp-check.js';

const [mode, first, second] = process.argv.slice(2);
if (!first) fail('usage: container-check.ts call|call-during|across URL [URL_B]');
if (mode === 'call' || mode === 'call-during') {
  const { client } = await connect(first);
  const text = await callChat(
    client,
    first,
    mode === 'call-during' ? () => console.log('progress') : undefined,
  );
  console.log(`answer: ${firstLine(text, 160)}`);
  if (mode === 'call') console.log(`view: ${await readGallery(client)}`);
  await client.close();
} else if (mode === 'across' && second) {
  const a = await connect(first);
  const sessionId = a.transport.sessionId ?? fail(`replica A (${first}) opened no session`);
  console.log(`A answered: ${firstLine(await callChat(a.client, first))}`);
  // Replica B has never seen this session: it finds it in the shared store.
  const b = await connect(second, { sessionId });
  b.transport.setProtocolVersion(a.transport.protocolVersion ?? '2025-11-25');
  console.log(`B answered: ${firstLine(await callChat(b.client, second))}`);
  console.log(`session ${sessionId.slice(0, 8)}… served by both replicas`);
  await b.client.close();
  await a.client.close();
} else {
  fail(`unknown mode "${mode}"`);
}
