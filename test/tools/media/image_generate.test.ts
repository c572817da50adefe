import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('image_generate', () => {
  it('saves the generated image and links it', async () => {
    expect(
      await t.snap('image_generate', { model: 'pixel-lite', prompt: 'a red fox', resolution: '512x512' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Image 1: <output>/<media:1>.png (orbit://media/<media:1>)
      Cost: 0.001 USD",
              "type": "text",
            },
            {
              "data": "<base64: 114158 bytes, sha256 c78b5446b85a>",
              "mimeType": "image/png",
              "type": "image",
            },
            {
              "description": "<output>/<media:1>.png (114158 bytes)",
              "mimeType": "image/png",
              "name": "<media:1>.png",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "cost": 0.001,
            "images": [
              {
                "path": "<output>/<media:1>.png",
                "uri": "orbit://media/<media:1>",
              },
            ],
            "request_id": "req_<n>",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
            },
            "method": "GET",
            "path": "/api/v1/images/models",
            "status": 200,
          },
          {
            "body": {
              "model": "pixel-lite",
              "prompt": "a red fox",
              "resolution": "512x512",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/images",
            "status": 200,
          },
          {
            "headers": {
              "accept": "*/*",
            },
            "method": "GET",
            "path": "/media/tmp/61ec2216a15f4fdb9635579d.png",
            "query": {
              "expires": "<time>",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('reports a refused prompt as not charged', async () => {
    expect(
      await t.snap('image_generate', { model: 'pixel-lite', prompt: 'nsfw poster' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (bad_request, HTTP 400): The prompt was rejected by the content policy; nothing was charged.
      Platform code: content_policy_violation
      Fix: Rephrase the prompt; this generation was not charged.
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "model": "pixel-lite",
              "prompt": "nsfw poster",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/images",
            "status": 400,
          },
        ],
      }
    `);
  });
});
