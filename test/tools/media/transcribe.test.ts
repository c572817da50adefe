import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { transcriptionJobMs: 0, pollHintMs: 10 } } });

describe('transcribe', () => {
  it('waits for an async transcription of a URL', async () => {
    expect(
      await t.snap(
        'transcribe',
        { url: 'https://example.com/talk.mp3', model: 'scribe-async' },
        { polls: 'once' },
      ),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "_meta": {
            "orbit/untrusted": [
              "text",
              "words",
            ],
          },
          "content": [
            {
              "text": "<untrusted-web-content>
      the quick brown fox jumps over the lazy dog and then the sandbox says hello again

      language en, 1 min charged, cost 0.01 USD
      </untrusted-web-content>",
              "type": "text",
            },
          ],
          "structuredContent": {
            "charged_min": 1,
            "cost": 0.01,
            "language": "en",
            "run_id": "tr_000001",
            "status": "completed",
            "text": "the quick brown fox jumps over the lazy dog and then the sandbox says hello again",
            "words": [
              {
                "end": 3,
                "start": 0,
                "text": "the",
                "type": "word",
              },
              {
                "end": 6.75,
                "start": 3.75,
                "text": "quick",
                "type": "word",
              },
              {
                "end": 10.5,
                "start": 7.5,
                "text": "brown",
                "type": "word",
              },
              {
                "end": 14.25,
                "start": 11.25,
                "text": "fox",
                "type": "word",
              },
              {
                "end": 18,
                "start": 15,
                "text": "jumps",
                "type": "word",
              },
              {
                "end": 21.75,
                "start": 18.75,
                "text": "over",
                "type": "word",
              },
              {
                "end": 25.5,
                "start": 22.5,
                "text": "the",
                "type": "word",
              },
              {
                "end": 29.25,
                "start": 26.25,
                "text": "lazy",
                "type": "word",
              },
              {
                "end": 33,
                "start": 30,
                "text": "dog",
                "type": "word",
              },
              {
                "end": 36.75,
                "start": 33.75,
                "text": "and",
                "type": "word",
              },
              {
                "end": 40.5,
                "start": 37.5,
                "text": "then",
                "type": "word",
              },
              {
                "end": 44.25,
                "start": 41.25,
                "text": "the",
                "type": "word",
              },
              {
                "end": 48,
                "start": 45,
                "text": "sandbox",
                "type": "word",
              },
              {
                "end": 51.75,
                "start": 48.75,
                "text": "says",
                "type": "word",
              },
              {
                "end": 55.5,
                "start": 52.5,
                "text": "hello",
                "type": "word",
              },
              {
                "end": 59.25,
                "start": 56.25,
                "text": "again",
                "type": "word",
              },
            ],
          },
        },
        "sent": [
          {
            "body": {
              "audioUrl": "https://example.com/talk.mp3",
              "model": "scribe-async",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/transcribe",
            "status": 202,
          },
          {
            "body": {
              "chargedDuration": "<ms>",
              "cost": 0.01,
              "diarize": false,
              "fileName": "talk.mp3",
              "fileSize": 0,
              "isApiRequest": true,
              "paymentSource": "USD",
              "runId": "tr_000001",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/transcribe/status",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('reports a failed transcription as an error', async () => {
    expect(
      await t.snap(
        'transcribe',
        { url: 'https://example.com/corrupt.mp3', model: 'scribe-async' },
        { polls: 'once' },
      ),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (job_failed): Transcription tr_000003 failed: The audio could not be decoded; the charge was refunded.
      Fix: Check the audio file and transcribe again.
      run_id: tr_000003",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "audioUrl": "https://example.com/corrupt.mp3",
              "model": "scribe-async",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/transcribe",
            "status": 202,
          },
          {
            "body": {
              "chargedDuration": "<ms>",
              "cost": 0.01,
              "diarize": false,
              "fileName": "corrupt.mp3",
              "fileSize": 0,
              "isApiRequest": true,
              "paymentSource": "USD",
              "runId": "tr_000003",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/transcribe/status",
            "status": 200,
          },
        ],
      }
    `);
  });
});
