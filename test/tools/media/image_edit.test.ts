import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

// A 1x1 transparent PNG, sent inline as a data URL.
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('image_edit', () => {
  it('sends inline images as JSON data URLs and saves the edit', async () => {
    expect(await t.snap('image_edit', { prompt: 'make it night', images: [PIXEL] })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Image 1: <output>/<media:1>.png (orbit://media/<media:1>)
      Cost: 0.03 USD",
              "type": "text",
            },
            {
              "data": "<base64: 140709 bytes, sha256 aaa1fcef12bd>",
              "mimeType": "image/png",
              "type": "image",
            },
            {
              "description": "<output>/<media:1>.png (140709 bytes)",
              "mimeType": "image/png",
              "name": "<media:1>.png",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "cost": 0.03,
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
            "body": {
              "imageDataUrl": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
              "prompt": "make it night",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/images/edits",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses a file outside the folders it may read, before sending', async () => {
    expect(await t.snap('image_edit', { prompt: 'x', images: ['/etc/passwd'] })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): /etc/passwd is outside the folders this server may read (<output>).
      Fix: Move the file into one of those folders, add its folder as a root in the client or with --allow-dir, or pass a public URL.",
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
