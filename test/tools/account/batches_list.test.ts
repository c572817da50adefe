import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('batches_list', () => {
  it('lists the newest completed batches with a cursor to older ones', async () => {
    expect(await t.snap('batches_list', { status: ['completed'], limit: 2 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "batch_000051 completed anthropic/claude-sandbox <time> 15/16 done, 1 failed
      batch_000050 completed sandbox/reasoner <time> 22/23 done, 1 failed
      Older: cursor eyJkIjoiYWZ0ZXIiLCJpZCI6ImJhdGNoXzAwMDA1MCIsInN0YXR1cyI6WyJjb21wbGV0ZWQiXSwibGltaXQiOjJ9",
              "type": "text",
            },
          ],
          "structuredContent": {
            "batches": [
              {
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
              {
                "created_at": "<time>",
                "endpoint": "/v1/responses",
                "finalized_at": "<time>",
                "id": "batch_000050",
                "model": "sandbox/reasoner",
                "requests": {
                  "completed": 22,
                  "failed": 1,
                  "total": 23,
                },
                "status": "completed",
                "total_tokens": 4400,
              },
            ],
            "has_more": true,
            "older_cursor": "eyJkIjoiYWZ0ZXIiLCJpZCI6ImJhdGNoXzAwMDA1MCIsInN0YXR1cyI6WyJjb21wbGV0ZWQiXSwibGltaXQiOjJ9",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/beta/batches",
            "query": {
              "limit": "2",
              "status": "completed",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses a cursor it did not make', async () => {
    expect(await t.snap('batches_list', { cursor: 'not-a-cursor' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): \`cursor\` is not a cursor from batches_list.
      Fix: Pass older_cursor or newer_cursor exactly as a previous batches_list result gave it, or leave it out to start at the newest batch.",
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
