/**
 * The matrix: each client on each transport it has, in each protocol era it can speak, on the
 * Node it needs (libraries that declare Node >= 22 run on a Node 22 binary from the npm registry).
 */
import type { Case, ClientId, Era, Transport } from './lib/types.js';

const ALL: Transport[] = ['stdio', 'http', 'http-stateless'];
const HTTP: Transport[] = ['http', 'http-stateless'];

function cases(client: ClientId, node: 20 | 22, eras: Era[], transports: Transport[] = ALL): Case[] {
  return eras.flatMap((era) =>
    transports.map((transport) => ({ id: `${client}-${transport}-${era}`, client, transport, era, node })),
  );
}

export const CASES: Case[] = [
  // The SDK's v2 client: pinned to 2026-07-28, and in its 2025 mode.
  ...cases('sdk-v2', 20, ['modern', 'legacy']),
  // AI SDK 2.x discovers 2026-07-28; with discovery off it sends the 2025 initialize.
  ...cases('ai-sdk-2', 22, ['modern', 'legacy']),
  ...cases('ai-sdk-1', 20, ['legacy']),
  ...cases('langchain', 20, ['legacy']),
  // Its v2 client negotiates (`auto`): 2026-07-28 against this server; no option pins 2025.
  ...cases('openai-agents', 22, ['modern']),
  ...cases('mastra', 22, ['modern', 'legacy']),
  // A 2025 stdio client behind the bridge; `--protocol auto` makes the bridge speak 2026-07-28 upstream.
  ...cases('mcp-remote', 20, ['legacy', 'modern'], HTTP),
];
