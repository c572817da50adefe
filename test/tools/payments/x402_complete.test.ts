import { describe, expect, it } from 'vitest';
import { usePrivateConfigDir, useTool } from '../lib.js';

// Quotes of a person's own process are kept in the config folder: a private one for this file.
usePrivateConfigDir();

/** No key at all: a payable call answers with a quote. */
const t = useTool({ credentials: [] });

/** The sandbox wallet pays a quote on one rail, as a real wallet would. */
async function pay(paymentId: string, scheme: string): Promise<void> {
  const res = await fetch(`${t.h.sandbox.url}/__sandbox/x402/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentId, scheme }),
  });
  expect(res.status).toBe(200);
}

describe('x402_complete', () => {
  it('completes a paid web_search quote, rendered by web_search', async () => {
    const quoted = await t.h.call('web_search', { query: 'reusable rockets', limit: 2 });
    const id = (quoted.structuredContent as { payment: { quote_id: string } }).payment.quote_id;
    await pay(id, 'nano');
    expect(await t.snap('x402_complete', { quote_id: id })).toMatchInlineSnapshot(`
      {
        "result": {
          "_meta": {
            "orbit/untrusted": [
              "result",
            ],
          },
          "content": [
            {
              "text": "<untrusted-web-content>
      Paid. 1. Reusable rockets - medium.com — https://medium.com/reusable-rockets
         What medium.com says about "reusable rockets": a deterministic sandbox snippet, result 1.
      2. Reusable rockets - en.wikipedia.org — https://en.wikipedia.org/reusable-rockets
         What en.wikipedia.org says about "reusable rockets": a deterministic sandbox snippet, result 2.
      Cost: 0.006 USD
      </untrusted-web-content>",
              "type": "text",
            },
          ],
          "structuredContent": {
            "result": {
              "cost": 0.006,
              "query": "reusable rockets",
              "request_id": "req_<n>",
              "results": [
                {
                  "snippet": "What medium.com says about "reusable rockets": a deterministic sandbox snippet, result 1.",
                  "title": "Reusable rockets - medium.com",
                  "url": "https://medium.com/reusable-rockets",
                },
                {
                  "snippet": "What en.wikipedia.org says about "reusable rockets": a deterministic sandbox snippet, result 2.",
                  "title": "Reusable rockets - en.wikipedia.org",
                  "url": "https://en.wikipedia.org/reusable-rockets",
                },
              ],
            },
            "status": "completed",
            "tool": "web_search",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
            },
            "method": "GET",
            "path": "/api/x402/status/pay_8158d63d3a4280633c014904",
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
            },
            "method": "POST",
            "path": "/api/x402/complete/pay_8158d63d3a4280633c014904",
            "status": 200,
          },
          {
            "body": {
              "outputType": "searchResults",
              "query": "reusable rockets",
            },
            "headers": {
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/data/web/search",
            "status": 200,
          },
          {
            "body": {
              "outputType": "searchResults",
              "query": "reusable rockets",
            },
            "headers": {
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

  it('says when it knows no such quote', async () => {
    expect(await t.snap('x402_complete', { quote_id: 'pay_nope' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): No quote "pay_nope" is kept by this server (quotes last until they expire).
      Fix: Call the tool that asked for it (data_call or web_search) again for a new quote.",
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
