import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('batches_get', () => {
  it("returns a completed batch's short results inline", async () => {
    const listed = await t.h.call('batches_list', { status: ['completed'], limit: 1 });
    const [batch] = (listed.structuredContent as { batches: { id: string }[] }).batches;
    expect(await t.snap('batches_get', { id: batch?.id })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "batch_000051 completed anthropic/claude-sandbox <time> 15/16 done, 1 failed
      request-1: Sandbox answer 1 of batch_000051.
      request-2: Sandbox answer 2 of batch_000051.
      request-3: Sandbox answer 3 of batch_000051.
      request-4: Sandbox answer 4 of batch_000051.
      request-5: Sandbox answer 5 of batch_000051.
      request-6: Sandbox answer 6 of batch_000051.
      request-7: Sandbox answer 7 of batch_000051.
      request-8: Sandbox answer 8 of batch_000051.
      request-9: Sandbox answer 9 of batch_000051.
      request-10: Sandbox answer 10 of batch_000051.
      request-11: Sandbox answer 11 of batch_000051.
      request-12: Sandbox answer 12 of batch_000051.
      request-13: Sandbox answer 13 of batch_000051.
      request-14: Sandbox answer 14 of batch_000051.
      request-15: Sandbox answer 15 of batch_000051.
      request-16: failed: {"code":"context_length_exceeded","message":"The request is longer than the model context."}",
              "type": "text",
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
              {
                "id": "request-4",
                "ok": true,
                "text": "Sandbox answer 4 of batch_000051.",
              },
              {
                "id": "request-5",
                "ok": true,
                "text": "Sandbox answer 5 of batch_000051.",
              },
              {
                "id": "request-6",
                "ok": true,
                "text": "Sandbox answer 6 of batch_000051.",
              },
              {
                "id": "request-7",
                "ok": true,
                "text": "Sandbox answer 7 of batch_000051.",
              },
              {
                "id": "request-8",
                "ok": true,
                "text": "Sandbox answer 8 of batch_000051.",
              },
              {
                "id": "request-9",
                "ok": true,
                "text": "Sandbox answer 9 of batch_000051.",
              },
              {
                "id": "request-10",
                "ok": true,
                "text": "Sandbox answer 10 of batch_000051.",
              },
              {
                "id": "request-11",
                "ok": true,
                "text": "Sandbox answer 11 of batch_000051.",
              },
              {
                "id": "request-12",
                "ok": true,
                "text": "Sandbox answer 12 of batch_000051.",
              },
              {
                "id": "request-13",
                "ok": true,
                "text": "Sandbox answer 13 of batch_000051.",
              },
              {
                "id": "request-14",
                "ok": true,
                "text": "Sandbox answer 14 of batch_000051.",
              },
              {
                "id": "request-15",
                "ok": true,
                "text": "Sandbox answer 15 of batch_000051.",
              },
              {
                "id": "request-16",
                "ok": false,
                "text": "{"code":"context_length_exceeded","message":"The request is longer than the model context."}",
              },
            ],
            "results": 16,
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
