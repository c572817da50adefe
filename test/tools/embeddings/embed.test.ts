import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('embed', () => {
  it('embeds one text with reduced dimensions', async () => {
    expect(await t.snap('embed', { input: 'orbit', dimensions: 8 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "1 vectors of 8 numbers from text-embedding-3-small, cost 0.00000004 USD, saved as JSON and .npy (float32, shape 1x8): orbit://media/<media:1>, orbit://media/<media:2>. Read them as resources, or from the paths in the links.",
              "type": "text",
            },
            {
              "description": "<output>/<media:1>.json (202 bytes)",
              "mimeType": "application/json",
              "name": "<media:1>.json",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
            {
              "description": "<output>/<media:2>.npy (160 bytes)",
              "mimeType": "application/x-npy",
              "name": "<media:2>.npy",
              "type": "resource_link",
              "uri": "orbit://media/<media:2>",
            },
          ],
          "structuredContent": {
            "cost": 4e-8,
            "count": 1,
            "dimensions": 8,
            "files": [
              "orbit://media/<media:1>",
              "orbit://media/<media:2>",
            ],
            "model": "text-embedding-3-small",
            "tokens": 2,
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/embedding-models",
            "status": 200,
          },
          {
            "body": {
              "dimensions": 8,
              "encoding_format": "base64",
              "input": [
                "orbit",
              ],
              "model": "text-embedding-3-small",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/embeddings",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses dimensions beyond the model', async () => {
    expect(await t.snap('embed', { input: 'x', dimensions: 5000 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): \`dimensions\` must be 1..1536 for text-embedding-3-small.
      Fix: Pick a size in that range, or leave dimensions out for the full size. Nothing was sent.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/embedding-models",
            "status": 200,
          },
        ],
      }
    `);
  });
});
