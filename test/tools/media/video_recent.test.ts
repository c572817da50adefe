import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { videoQueueMs: 0, videoRenderMs: 0, pollHintMs: 10 } } });

describe('video_recent', () => {
  it('lists recent runs newest first', async () => {
    await t.h.call('video_generate', { model: 'sandbox/video-lite', prompt: 'first', wait: false });
    await t.h.call('video_generate', { model: 'sandbox/video-lite', prompt: 'second', wait: false });
    expect(await t.snap('video_recent', { limit: 2 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "vid_000002 COMPLETED sandbox/video-lite <time> "second" (conversation <uuid:1>)
      vid_000001 COMPLETED sandbox/video-lite <time> "first" (conversation <uuid:2>)",
              "type": "text",
            },
          ],
          "structuredContent": {
            "runs": [
              {
                "conversation_uuid": "<uuid:1>",
                "created_at": "<time>",
                "model": "sandbox/video-lite",
                "prompt": "second",
                "run_id": "vid_000002",
                "status": "COMPLETED",
                "video_url": "http://sandbox/media/tmp/10c668d984d7d778b34d35f5.mp4?expires=<time>",
              },
              {
                "conversation_uuid": "<uuid:2>",
                "created_at": "<time>",
                "model": "sandbox/video-lite",
                "prompt": "first",
                "run_id": "vid_000001",
                "status": "COMPLETED",
                "video_url": "http://sandbox/media/tmp/10c668d984d7d778b34d35f5.mp4?expires=<time>",
              },
            ],
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/generate-video/recover",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says how long to wait when rate limited', async () => {
    t.h.sandbox.faults.add({
      match: { path: '/api/generate-video/recover' },
      status: 429,
      retryAfterSeconds: 30,
    });
    expect(await t.snap('video_recent', {})).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (rate_limited, HTTP 429): Rate limit exceeded; slow down (sandbox fault).
      Platform code: rate_limit_exceeded
      Fix: Rate limited; wait 30 s before calling again.
      Retry after: 30 s
      Request id: req_<n>
      code: rate_limit_exceeded",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/generate-video/recover",
            "status": 429,
          },
        ],
      }
    `);
  });
});
