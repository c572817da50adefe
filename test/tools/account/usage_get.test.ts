import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const t = useTool({ credentials: credentials({ key: P.demo.apiKey, token: T.all }) });
const revoked = useTool({ credentials: credentials({ token: T.revoked }) });

describe('usage_get', () => {
  it('shows operations by API key and tokens and images by management token', async () => {
    expect(await t.snap('usage_get')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Subscription: active, period ends <time>
      Daily operations: 37 of 100 operations used (37%), 63 left, resets <time> (in <duration>)
      Monthly operations: 412 of 2,000 operations used (20.6%), 1,588 left, resets <time> (in <duration>)
      Daily input tokens: 350,000 of 2,000,000 input tokens used (17.5%), 1,650,000 left, resets <time> (in <duration>)
      Weekly input tokens: 4,200,000 of 10,000,000 input tokens used (42%), 5,800,000 left, resets <time> (in <duration>)
      Daily images: 12 of 50 images used (24%), 38 left, resets <time> (in <duration>)
      Spend budget: none set (--max-spend-usd); 0 USD spent by this server so far.",
              "type": "text",
            },
          ],
          "structuredContent": {
            "active": true,
            "budget": {
              "reserved_usd": 0,
              "spent_usd": 0,
            },
            "grace_until": null,
            "notes": [],
            "period_end": "<time>",
            "quotas": {
              "daily_images": {
                "limit": 50,
                "percent_used": 24,
                "remaining": 38,
                "resets_at": "<time>",
                "resets_in": "in <duration>",
                "unit": "images",
                "used": 12,
              },
              "daily_input_tokens": {
                "limit": 2000000,
                "percent_used": 17.5,
                "remaining": 1650000,
                "resets_at": "<time>",
                "resets_in": "in <duration>",
                "unit": "input tokens",
                "used": 350000,
              },
              "daily_operations": {
                "limit": 100,
                "percent_used": 37,
                "remaining": 63,
                "resets_at": "<time>",
                "resets_in": "in <duration>",
                "unit": "operations",
                "used": 37,
              },
              "monthly_operations": {
                "limit": 2000,
                "percent_used": 20.6,
                "remaining": 1588,
                "resets_at": "<time>",
                "resets_in": "in <duration>",
                "unit": "operations",
                "used": 412,
              },
              "weekly_input_tokens": {
                "limit": 10000000,
                "percent_used": 42,
                "remaining": 5800000,
                "resets_at": "<time>",
                "resets_in": "in <duration>",
                "unit": "input tokens",
                "used": 4200000,
              },
            },
            "state": "active",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/subscription/v1/usage",
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:management-token>",
            },
            "method": "GET",
            "path": "/api/management/v1/subscription/usage",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('reports a revoked management token', async () => {
    expect(await revoked.snap('usage_get')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (missing_credential): This needs api key, and none is configured.
      Fix: Set ORBIT_API_KEY, sign in with the auth_login tool (or \`orbit-mcp login\`), or start with --sandbox to try it offline.
      credential: api_key",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:management-token>",
            },
            "method": "GET",
            "path": "/api/management/v1/subscription/usage",
            "status": 401,
          },
        ],
      }
    `);
  });
});
