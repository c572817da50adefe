import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ credentials: [] });

describe('x402_endpoints', () => {
  it('lists the payable routes with their price and the tool that calls each, asking without a key', async () => {
    expect(await t.snap('x402_endpoints')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "POST /api/web: 0.006 USD per standard search, 0.06 USD per deep search (web_search)
      POST /api/v1/data/web/search: 0.006 USD per standard search, 0.06 USD per deep search (web_search)
      POST /api/v1/data/url/scrape: 0.002 USD per scraped URL, 0.006 USD in stealth mode (data_call endpoint url.scrape)
      POST /api/scrape-urls: 0.002 USD per scraped URL, 0.006 USD in stealth mode
      rails: x402-exact, x402-solana-usdc, nano-exact, base-usdc, nano, lightning-l402",
              "type": "text",
            },
          ],
          "structuredContent": {
            "routes": [
              "POST /api/web: 0.006 USD per standard search, 0.06 USD per deep search (web_search)",
              "POST /api/v1/data/web/search: 0.006 USD per standard search, 0.06 USD per deep search (web_search)",
              "POST /api/v1/data/url/scrape: 0.002 USD per scraped URL, 0.006 USD in stealth mode (data_call endpoint url.scrape)",
              "POST /api/scrape-urls: 0.002 USD per scraped URL, 0.006 USD in stealth mode",
              "rails: x402-exact, x402-solana-usdc, nano-exact, base-usdc, nano, lightning-l402",
            ],
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
            },
            "method": "GET",
            "path": "/api/v1/x402/endpoints",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('fails with isError when the list breaks its shape', async () => {
    t.h.sandbox.faults.add({
      match: { path: '/api/v1/x402/endpoints' },
      status: 200,
      body: { data: 'none' },
    });
    expect(await t.snap('x402_endpoints')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (upstream_invalid): The platform's reply from /api/v1/x402/endpoints did not match the spec at \`(body)\`: Invalid input.
      Fix: This is not your fault: the platform sent something this server cannot read. Call again; if it repeats, report it with the request id.
      Request id: req_<n>
      field: (body)",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
            },
            "method": "GET",
            "path": "/api/v1/x402/endpoints",
            "status": 200,
          },
        ],
      }
    `);
  });
});
