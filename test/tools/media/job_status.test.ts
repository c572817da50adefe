import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { speechJobMs: 0, pollHintMs: 10 } } });

describe('job_status', () => {
  it('finishes a speech job handed back past its wait', async () => {
    const first = await t.h.call('speech_generate', {
      text: 'A long narration. '.repeat(20),
      model: 'tts-studio',
      max_wait_s: 0,
    });
    const { run_id } = first.structuredContent as { run_id: string };
    expect(await t.snap('job_status', { run_id }, { polls: 'once' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Audio saved: <output>/<media:1>.mp3 (orbit://media/<media:1>)
      Duration: 8 s",
              "type": "text",
            },
            {
              "data": "<base64: 127602 bytes, sha256 eaa47ee6fe09>",
              "mimeType": "audio/mpeg",
              "type": "audio",
            },
            {
              "description": "<output>/<media:1>.mp3 (127602 bytes)",
              "mimeType": "audio/mpeg",
              "name": "<media:1>.mp3",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "duration": "<ms>",
            "kind": "speech",
            "path": "<output>/<media:1>.mp3",
            "run_id": "tts_000001",
            "status": "completed",
            "uri": "orbit://media/<media:1>",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/tts/status",
            "query": {
              "cost": "0.036",
              "isApiRequest": "true",
              "model": "tts-studio",
              "paymentSource": "USD",
              "runId": "tts_000001",
            },
            "status": 200,
          },
          {
            "headers": {
              "accept": "*/*",
            },
            "method": "GET",
            "path": "/media/tmp/2cbd149dc3ec24cd427d6496.mp3",
            "query": {
              "expires": "<time>",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says plainly when it knows no such job', async () => {
    expect(await t.snap('job_status', { run_id: 'tts_nope' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): No speech or transcription job "tts_nope" is known to this server.
      Fix: Pass kind: "speech" for a speech job started elsewhere, or "response" for a stored chat response.",
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
