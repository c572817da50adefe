import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('music_generate', () => {
  it('saves a track from a music model', async () => {
    expect(
      await t.snap('music_generate', { prompt: 'calm piano', model: 'music-lite' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Audio saved: <output>/<media:1>.mp3 (orbit://media/<media:1>)
      Cost: 0.02 USD",
              "type": "text",
            },
            {
              "data": "<base64: 95910 bytes, sha256 d4f0529c5179>",
              "mimeType": "audio/mpeg",
              "type": "audio",
            },
            {
              "description": "<output>/<media:1>.mp3 (95910 bytes)",
              "mimeType": "audio/mpeg",
              "name": "<media:1>.mp3",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "cost": 0.02,
            "path": "<output>/<media:1>.mp3",
            "status": "completed",
            "uri": "orbit://media/<media:1>",
          },
        },
        "sent": [
          {
            "body": {
              "input": "calm piano",
              "model": "music-lite",
              "voice": "default",
            },
            "headers": {
              "accept": "audio/*, application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/audio/speech",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('explains a model that is not a music or speech model', async () => {
    expect(await t.snap('music_generate', { prompt: 'x', model: 'whisper-sandbox' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (bad_request, HTTP 400): whisper-sandbox is a transcription model, not tts or music.
      Platform code: invalid_parameter_value (parameter model)
      Fix: Fix the argument named in the message and call again.
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "input": "x",
              "model": "whisper-sandbox",
              "voice": "default",
            },
            "headers": {
              "accept": "audio/*, application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/audio/speech",
            "status": 400,
          },
        ],
      }
    `);
  });
});
