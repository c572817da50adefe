import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { videoQueueMs: 0, videoRenderMs: 0, pollHintMs: 10 } } });

describe('video_status', () => {
  it('finishes a run submitted without waiting', async () => {
    const submitted = await t.h.call('video_generate', {
      model: 'sandbox/video-lite',
      prompt: 'a comet',
      wait: false,
    });
    const { run_id } = submitted.structuredContent as { run_id: string };
    expect(await t.snap('video_status', { run_id }, { polls: 'once' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Video vid_000001: COMPLETED
      Saved: <output>/<media:1>.mp4 (orbit://media/<media:1>)
      URL (temporary): http://sandbox/media/tmp/6c85695fd9bf65c8838fc34e.mp4?expires=<time>
      Cost: pre-charged 0.15 USD, final 0.15 USD",
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

  it('refuses a run of another account', async () => {
    const other = t.h.sandbox.state.createKey({ balance: 5 });
    t.secret('other-key', other);
    const res = await fetch(`${t.h.sandbox.url}/api/generate-video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox/video-lite', prompt: 'theirs' }),
    });
    const { runId } = (await res.json()) as { runId: string };
    expect(await t.snap('video_status', { run_id: runId, max_wait_s: 0 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (forbidden, HTTP 403): Video job vid_000004 belongs to another account.
      Platform code: forbidden
      Fix: This credential is not allowed to do that; use a credential with the needed scope or role.
      Request id: req_<n>
      code: forbidden",
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
            "path": "/api/video/status",
            "query": {
              "requestId": "vid_000004",
            },
            "status": 403,
          },
        ],
      }
    `);
  });
});
