import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('data_endpoints', () => {
  // First, while the endpoint list is not yet cached: a later call would not ask the platform.
  it('reports a platform failure with its request id', async () => {
    t.h.sandbox.faults.add({ match: { path: '/api/v1/data/endpoints' }, status: 503, times: 2 });
    expect(await t.snap('data_endpoints', { filter: 'maps' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (server_error, HTTP 503): Service temporarily unavailable (sandbox fault).
      Platform code: service_unavailable
      Fix: The platform had a problem; try again in a moment.
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
            "path": "/api/v1/data/endpoints",
            "status": 503,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/data/endpoints",
            "status": 503,
          },
        ],
      }
    `);
  });

  it('lists the endpoints matching a filter', async () => {
    expect(await t.snap('data_endpoints', { filter: 'maps' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "maps.search [GET,POST] maps: Credit-based: 1 credit per place returned, 0.0012 USD per credit (provider credits plus a 20% markup).
      maps.reviews [POST] maps: Credit-based: 1 credit per 10 reviews (rounded up), 0.0012 USD per credit (provider credits plus a 20% markup).",
              "type": "text",
            },
          ],
          "structuredContent": {
            "endpoints": [
              "maps.search [GET,POST] maps: Credit-based: 1 credit per place returned, 0.0012 USD per credit (provider credits plus a 20% markup).",
              "maps.reviews [POST] maps: Credit-based: 1 credit per 10 reviews (rounded up), 0.0012 USD per credit (provider credits plus a 20% markup).",
            ],
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/data/endpoints",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says when no endpoint matches, without asking the platform again', async () => {
    expect(await t.snap('data_endpoints', { filter: 'no such thing' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "No data endpoint matches; call data_endpoints without a filter to see all.",
              "type": "text",
            },
          ],
          "structuredContent": {
            "endpoints": [],
          },
        },
        "sent": [],
      }
    `);
  });
});
