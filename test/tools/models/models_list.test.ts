import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('models_list', () => {
  it('lists text model ids matching a filter', async () => {
    expect(await t.snap('models_list', { filter: 'gpt-sandbox', limit: 2 })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "2 text models: openai/gpt-sandbox, openai/gpt-sandbox-mini",
              "type": "text",
            },
          ],
          "structuredContent": {
            "kind": "text",
            "models": [
              {
                "id": "openai/gpt-sandbox",
              },
              {
                "id": "openai/gpt-sandbox-mini",
              },
            ],
            "total": 2,
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/models",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses an unknown kind', async () => {
    expect(await t.snap('models_list', { kind: 'smell' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Invalid arguments: kind: Invalid option: expected one of "text"|"image"|"video"|"audio"|"embedding".
      Fix: Correct the named arguments (see the tool input schema) and call again.",
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
