import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { videoQueueMs: 0, videoRenderMs: 0, pollHintMs: 10 } } });

describe('video_generate', () => {
  it('submits, waits for the render and saves the video', async () => {
    expect(
      await t.snap('video_generate', { model: 'sandbox/video-lite', prompt: 'a kite' }, { polls: 'once' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Video vid_000001: COMPLETED
      Saved: <output>/<media:1>.mp4 (orbit://media/<media:1>)
      URL (temporary): http://sandbox/media/tmp/6c85695fd9bf65c8838fc34e.mp4?expires=<time>
      Cost: pre-charged 0.15 USD, final 0.15 USD, balance 24.85 USD",
              "type": "text",
            },
            {
              "description": "<output>/<media:1>.mp4 (433474 bytes)",
              "mimeType": "video/mp4",
              "name": "<media:1>.mp4",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "cost": {
              "balance": 24.85,
              "estimate": 0.15,
              "final": 0.15,
            },
            "path": "<output>/<media:1>.mp4",
            "run_id": "vid_000001",
            "status": "COMPLETED",
            "uri": "orbit://media/<media:1>",
            "video_url": "http://sandbox/media/tmp/6c85695fd9bf65c8838fc34e.mp4?expires=<time>",
          },
        },
        "sent": [
          {
            "body": {
              "model": "sandbox/video-lite",
              "prompt": "a kite",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/generate-video",
            "status": 202,
          },
          {
            "headers": {
              "accept": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/video/status",
            "query": {
              "requestId": "vid_000001",
            },
            "status": 200,
          },
          {
            "headers": {
              "accept": "*/*",
            },
            "method": "GET",
            "path": "/media/tmp/6c85695fd9bf65c8838fc34e.mp4",
            "query": {
              "expires": "<time>",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('reports a failed render as refunded', async () => {
    expect(
      await t.snap(
        'video_generate',
        { model: 'sandbox/video-pro', prompt: 'fail-render a storm' },
        { polls: 'once' },
      ),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (job_failed): Video vid_000004 FAILED: Rendering failed on the provider; the charge was refunded. The pre-charge of 0.5 USD was refunded.
      Fix: Adjust the prompt or settings and call video_generate again.
      run_id: vid_000004
      refunded_usd: 0.5",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "model": "sandbox/video-pro",
              "prompt": "fail-render a storm",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/generate-video",
            "status": 202,
          },
          {
            "headers": {
              "accept": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/video/status",
            "query": {
              "requestId": "vid_000004",
            },
            "status": 200,
          },
        ],
      }
    `);
  });
});
