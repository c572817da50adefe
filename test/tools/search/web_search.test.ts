import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('web_search', () => {
  it('returns search results', async () => {
    expect(await t.snap('web_search', { query: 'orbital mechanics', limit: 2 })).toMatchInlineSnapshot(`
      {
        "result": {
          "_meta": {
            "orbit/untrusted": [
              "results",
            ],
          },
          "content": [
            {
              "text": "<untrusted-web-content>
      1. Orbital mechanics - developer.mozilla.org — https://developer.mozilla.org/orbital-mechanics
         What developer.mozilla.org says about "orbital mechanics": a deterministic sandbox snippet, result 1.
      2. Orbital mechanics - github.com — https://github.com/orbital-mechanics
         What github.com says about "orbital mechanics": a deterministic sandbox snippet, result 2.
      Cost: 0.006 USD
      </untrusted-web-content>",
              "type": "text",
            },
          ],
          "structuredContent": {
            "cost": 0.006,
            "query": "orbital mechanics",
            "request_id": "req_<n>",
            "results": [
              {
                "snippet": "What developer.mozilla.org says about "orbital mechanics": a deterministic sandbox snippet, result 1.",
                "title": "Orbital mechanics - developer.mozilla.org",
                "url": "https://developer.mozilla.org/orbital-mechanics",
              },
              {
                "snippet": "What github.com says about "orbital mechanics": a deterministic sandbox snippet, result 2.",
                "title": "Orbital mechanics - github.com",
                "url": "https://github.com/orbital-mechanics",
              },
            ],
          },
        },
        "sent": [
          {
            "body": {
              "outputType": "searchResults",
              "query": "orbital mechanics",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/web",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses an empty query', async () => {
    expect(await t.snap('web_search', { query: '' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Invalid arguments: query: Too small: expected string to have >=1 characters.
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
