/**
 * Prompts and completions against the built server with the SDK's v2 client, in both eras: pinned
 * to 2026-07-28 (server/discover, per-request `_meta`, no sessions) over stdio, HTTP and HTTP
 * --stateless, and as a 2025 client over HTTP. The in-process details are in prompts.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

type Era = 'modern' | 'legacy';

/** List, render, refuse, complete: what each client below must get. */
async function promptsJourney(client: Client) {
  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toEqual(
    expect.arrayContaining([
      'compare_models',
      'summarize_video',
      'narrated_clip',
      'check_spending',
      'get_started',
    ]),
  );
  const rendered = await client.getPrompt({
    name: 'summarize_video',
    arguments: { url: 'https://youtu.be/abc', style: 'outline' },
  });
  const message = rendered.messages[0];
  expect(message?.role).toBe('user');
  expect(message?.content.type === 'text' && message.content.text).toContain(
    '`transcribe_video_links` with {"urls":["https://youtu.be/abc"]}',
  );
  await expect(client.getPrompt({ name: 'compare_models', arguments: {} })).rejects.toThrow(
    /needs `question`/,
  );
  const models = await client.complete({
    ref: { type: 'ref/prompt', name: 'compare_models' },
    argument: { name: 'models', value: 'openai/gpt-sandbox, anth' },
  });
  expect(models.completion.values).toEqual(['openai/gpt-sandbox, anthropic/claude-sandbox']);
  const toolsets = await client.complete({
    ref: { type: 'ref/prompt', name: 'get_started' },
    argument: { name: 'toolset', value: 'me' },
  });
  expect(toolsets.completion.values).toEqual(['media']);
  const style = await client.complete({
    ref: { type: 'ref/prompt', name: 'summarize_video' },
    argument: { name: 'style', value: 'b' },
  });
  expect(style.completion.values).toEqual(['bullets']);
}

async function connected(transport: StdioClientTransport | StreamableHTTPClientTransport, era: Era) {
  const client = new Client({ name: `prompts-${era}`, version: '1' }, era === 'modern' ? MODERN : {});
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
  return client;
}

describe('prompts and completions on the built server', () => {
  it('serve a 2026-07-28 client over stdio', async () => {
    const client = await connected(
      new StdioClientTransport({ command: process.execPath, args: [BIN, '--sandbox'], stderr: 'pipe' }),
      'modern',
    );
    try {
      await promptsJourney(client);
    } finally {
      await client.close();
    }
  });

  for (const mode of ['sessions', 'stateless'] as const) {
    describe(`over HTTP (${mode})`, () => {
      let server: { url: string; child: ChildProcess };
      beforeAll(async () => {
        server = await startHttpServer([
          BIN,
          '--http',
          '--sandbox',
          '--port',
          '0',
          ...(mode === 'stateless' ? ['--stateless'] : []),
        ]);
      });
      afterAll(async () => {
        if (server) await stopProcess(server.child);
      });

      for (const era of ['modern', 'legacy'] as const) {
        it(`serve a ${era === 'modern' ? '2026-07-28' : '2025'} client`, async () => {
          const client = await connected(new StreamableHTTPClientTransport(new URL(server.url)), era);
          try {
            await promptsJourney(client);
          } finally {
            await client.close();
          }
        });
      }
    });
  }
});
