import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('batches_get', () => {
  it("saves a completed batch's results to a file and previews them", async () => {
    const listed = await t.h.call('batches_list', { status: ['completed'], limit: 1 });
    const [batch] = (listed.structuredContent as { batches: { id: string }[] }).batches;
    expect(await t.snap('batches_get', { id: batch?.id })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "batch_000051 completed anthropic/claude-sandbox <time> 15/16 done, 1 failed
      16 results saved to <output>/<media:1>.json
      request-1: Sandbox answer 1 of batch_000051.
      request-2: Sandbox answer 2 of batch_000051.
      request-3: Sandbox answer 3 of batch_000051.",
              "type": "text",
            },
            {
              "description": "<output>/<media:1>.json (10169 bytes)",
              "mimeType": "application/json",
              "name": "<media:1>.json",
              "type": "resource_link",
              "uri": "orbit://media/<media:1>",
            },
          ],
          "structuredContent": {
            "batch": {
              "created_at": "<time>",
              "endpoint": "/v1/chat/completions",
              "finalized_at": "<time>",
              "id": "batch_000051",
              "model": "anthropic/claude-sandbox",
              "requests": {
                "completed": 15,
                "failed": 1,
                "total": 16,
              },
              "status": "completed",
              "total_tokens": 3000,
            },
            "preview": [
              {
                "id": "request-1",
                "ok": true,
                "text": "Sandbox answer 1 of batch_000051.",
              },
              {
                "id": "request-2",
                "ok": true,
                "text": "Sandbox answer 2 of batch_000051.",
              },
              {
                "id": "request-3",
                "ok": true,
                "text": "Sandbox answer 3 of batch_000051.",
              },
            ],
            "results": 16,
            "results_file": {
              "path": "<output>/<media:1>.json",
              "uri": "orbit://media/<media:1>",
            },
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/beta/batches/batch_000051",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('reports an unknown batch as not found', async () => {
    expect(await t.snap('batches_get', { id: 'batch_999999' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (not_found, HTTP 404): No batch batch_999999 in this account.
      Platform code: 404
      Fix: Check the id; list the items first to find a valid one.
      Request id: req_<n>",
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
            "path": "/api/beta/batches/batch_999999",
            "status": 404,
          },
        ],
      }
    `);
  });
});
