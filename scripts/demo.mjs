#!/usr/bin/env node
/**
 * `npm run demo`: starts the built server on the offline sandbox over stdio, connects a real MCP
 * client, lists the tools, streams a chat answer (printing progress as it arrives), searches, calls
 * the data API, ranks documents with embeddings, and generates an image and a short speech clip,
 * printing where they were saved.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['dist/orbit-mcp.js', '--sandbox'],
  // Generated media go to a temporary folder unless ORBIT_OUTPUT_DIR says otherwise.
  env: { ORBIT_OUTPUT_DIR: join(tmpdir(), 'orbit-demo'), ...process.env, ORBIT_LOG_LEVEL: 'warning' },
  stderr: 'inherit',
});
const client = new Client({ name: 'orbit-demo', version: '1.0.0' });
await client.connect(transport);
const say = (line = '') => process.stdout.write(`${line}\n`);

const { tools } = await client.listTools();
say(`Connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version} on the sandbox.`);
say(`${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`);

say('chat (streamed; each line is a progress notification):');
const chat = await client.callTool(
  {
    name: 'chat',
    arguments: { model: 'openai/gpt-sandbox', prompt: 'Explain in one paragraph what an MCP server does.' },
  },
  undefined,
  { onprogress: (p) => say(`  … ${p.message}`) },
);
say(`\nanswer:\n${chat.content[0]?.text}\n`);

say('web_search:');
const search = await client.callTool({
  name: 'web_search',
  arguments: { query: 'model context protocol', limit: 3 },
});
say(search.content[0]?.text);

say('\ndata_call (maps.search):');
const places = await client.callTool({
  name: 'data_call',
  arguments: { endpoint: 'maps.search', input: { query: 'coffee', location: 'Lisbon', limit: 3 } },
});
const found = places.structuredContent;
say(
  places.isError
    ? places.content[0]?.text
    : `${found.data.places.map((p) => `${p.name} (${p.rating}★)`).join(', ')} — ${found.cost} USD, ${found.request_id}`,
);

say('\nembed (documents ranked by similarity to "how do satellites stay in orbit"):');
const ranked = await client.callTool({
  name: 'embed',
  arguments: {
    query: 'how do satellites stay in orbit',
    documents: [
      'A recipe for banana bread',
      'Orbital mechanics of satellites and gravity',
      'Tax rules for shops',
    ],
  },
});
say(ranked.content[0]?.text);

say('\nimage_generate:');
const image = await client.callTool({
  name: 'image_generate',
  arguments: { model: 'pixel-lite', prompt: 'a lighthouse at dawn', resolution: '512x512' },
});
say(image.content[0]?.text);

say('\nspeech_generate:');
const speech = await client.callTool({
  name: 'speech_generate',
  arguments: { text: 'Hello from the Orbit sandbox.', model: 'tts-mini', format: 'wav' },
});
say(speech.content[0]?.text);
say(
  `\nSaved files: ${[image.structuredContent?.images?.[0]?.path, speech.structuredContent?.path].filter(Boolean).join(', ')}`,
);

if ([chat, search, places, ranked, image, speech].some((r) => r.isError)) process.exitCode = 1;
await client.close();
