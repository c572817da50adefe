import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const reader = useTool({
  credentials: credentials({ key: P.demo.apiKey, token: T.keysRead }),
  config: { toolsets: 'keys' },
});
const usageOnly = useTool({
  credentials: credentials({ key: P.demo.apiKey, token: T.usage }),
  config: { toolsets: 'keys' },
});

describe('api_keys_read', () => {
  it("lists the account's keys with the management token, never their secrets", async () => {
    expect(await reader.snap('api_keys_read', { operation: 'list' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "key_000001  demo  sk-orbit-…demo  100000 requests/day",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": [
              {
                "created_at": "<time>",
                "daily_request_limit": 100000,
                "daily_usd_limit": null,
                "disabled": false,
                "expires_at": null,
                "id": "key_000001",
                "key_preview": "sk-orbit-…demo",
                "name": "demo",
                "oauth_app": null,
                "object": "api_key",
                "usage": {
                  "requests_today": 0,
                  "spent_today_usd": 0,
                  "spent_total_usd": 0,
                },
              },
            ],
            "operation": "list",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:management-token>",
            },
            "method": "GET",
            "path": "/api/management/v1/api-keys",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('names the scope a token lacks, and how to make one that has it', async () => {
    expect(await usageOnly.snap('api_keys_read', { operation: 'list' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (forbidden, HTTP 403): This management token lacks the \`api_keys:read\` scope (it has usage:read); tokens never gain scopes, so create a new one with \`api_keys:read\`.
      Platform code: insufficient_scope
      Fix: The management token lacks the scope this needs, and tokens never gain scopes: create a new one with the \`api_keys:read\` scope in the platform account settings, then set ORBIT_MANAGEMENT_TOKEN (or \`orbit-mcp login --management-token\`).
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
              "authorization": "Bearer <secret:management-token>",
            },
            "method": "GET",
            "path": "/api/management/v1/api-keys",
            "status": 403,
          },
        ],
      }
    `);
  });
});
