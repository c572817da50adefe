import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ sandbox: { timing: { videoQueueMs: 0, videoRenderMs: 0, pollHintMs: 10 } } });

const finishedRun = async (model: string) => {
  const source = await t.h.call('video_generate', { model, prompt: 'a river' });
  return (source.structuredContent as { run_id: string }).run_id;
};

describe('video_extend', () => {
  it('extends a finished run and waits for the new run', async () => {
    const run_id = await finishedRun('sandbox/video-pro');
    expect(
      await t.snap(
        'video_extend',
        { run_id, index: 0, prompt: 'the river reaches the sea' },
        { polls: 'once' },
      ),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Video vid_000004: COMPLETED
      Saved: <output>/<media:1>.mp4 (orbit://media/<media:1>)
      URL (temporary): http://sandbox/media/tmp/736aa2c2e58a8a121a245990.mp4?expires=<time>
      Cost: pre-charged 0.5 USD, final 0.5 USD, balance 24 USD",
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
              "balance": 24,
              "estimate": 0.5,
              "final": 0.5,
            },
            "path": "<output>/<media:1>.mp4",
            "run_id": "vid_000004",
            "status": "COMPLETED",
            "uri": "orbit://media/<media:1>",
            "video_url": "http://sandbox/media/tmp/736aa2c2e58a8a121a245990.mp4?expires=<time>",
          },
        },
        "sent": [
          {
            "body": {
              "index": 0,
              "prompt": "the river reaches the sea",
              "runId": "vid_000001",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/generate-video/extend",
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
          {
            "headers": {
              "accept": "*/*",
            },
            "method": "GET",
            "path": "/media/tmp/736aa2c2e58a8a121a245990.mp4",
            "query": {
              "expires": "<time>",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('explains when a run cannot be extended', async () => {
    const run_id = await finishedRun('sandbox/video-lite');
    expect(await t.snap('video_extend', { run_id })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (bad_request, HTTP 400): Only sandbox/video-pro runs can be extended here; extend other models through /api/generate-video with a source video.
      Platform code: invalid_parameter_value
      Fix: Fix the argument named in the message and call again.
      Request id: req_<n>
      code: invalid_parameter_value",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "index": 0,
              "runId": "vid_000007",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/generate-video/extend",
            "status": 400,
          },
        ],
      }
    `);
  });
});
