import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { speechJobMs: 0, pollHintMs: 10 } } });

describe('speech_generate', () => {
  it('saves speech from a synchronous model', async () => {
    expect(
      await t.snap('speech_generate', {
        text: 'Hello there, world.',
        model: 'tts-mini',
        voice: 'alloy',
        format: 'wav',
      }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Audio saved: <output>/<media:1>.wav (orbit://media/<media:1>)
      Cost: 0.000285 USD",
              "type": "text",
            },
            {
              "data": "<base64: 40578 bytes, sha256 9dc1327e463c>",
              "mimeType": "audio/wav",
              "type": "audio",
            },
            {
              "description": "<output>/<media:1>.wav (40578 bytes)",
              "mimeType": "audio/wav",
              "name": "<media:1>.wav",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "cost": 0.000285,
            "path": "<output>/<media:1>.wav",
            "status": "completed",
            "uri": "orbit://media/<media:1>",
          },
        },
        "sent": [
          {
            "body": {
              "model": "tts-mini",
              "response_format": "wav",
              "text": "Hello there, world.",
              "voice": "alloy",
            },
            "headers": {
              "accept": "audio/*, application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/tts",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('asks for text', async () => {
    expect(await t.snap('speech_generate', {})).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Invalid arguments: text: Invalid input: expected string, received undefined.
      Fix: Correct the named arguments (see the tool input schema) and call again.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [],
      }
    `);
  });
});
