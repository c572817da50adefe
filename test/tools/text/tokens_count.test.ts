import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('tokens_count', () => {
  it('counts the tokens of a prompt', async () => {
    expect(
      await t.snap('tokens_count', { model: 'anthropic/claude-sandbox', prompt: 'count these words please' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "6 input tokens on anthropic/claude-sandbox",
              "type": "text",
            },
          ],
          "structuredContent": {
            "input_tokens": 6,
            "model": "anthropic/claude-sandbox",
          },
        },
        "sent": [
          {
            "body": {
              "messages": [
                {
                  "content": "count these words please",
                  "role": "user",
                },
              ],
              "model": "anthropic/claude-sandbox",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/messages/count_tokens",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses a call with nothing to count', async () => {
    expect(await t.snap('tokens_count', { model: 'anthropic/claude-sandbox' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Nothing to count: give \`prompt\` or \`messages\`.
      Fix: Pass prompt: "text to count".",
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
