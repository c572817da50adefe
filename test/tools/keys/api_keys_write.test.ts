import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P, SANDBOX_MANAGEMENT_TOKENS as T } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { expectNoSecret, usePrivateConfigDir, useTool } from '../lib.js';

// A new key's secret is written to a file in the config folder: a private one for this file.
const configDir = usePrivateConfigDir();

const writer = useTool({
  credentials: credentials({ key: P.demo.apiKey, token: T.keysWrite }),
  config: { toolsets: 'keys' },
});
const reader = useTool({
  credentials: credentials({ key: P.demo.apiKey, token: T.keysRead }),
  config: { toolsets: 'keys' },
});
writer.alias(configDir, '<config>');

describe('api_keys_write', () => {
  it('creates a key, writing its secret to a file and never into the result', async () => {
    const before = new Set(writer.h.sandbox.state.keysOf(P.demo.account).map((k) => k.key));
    const snap = await writer.snap('api_keys_write', { operation: 'create', name: 'ci', daily_usd_limit: 5 });
    const created = writer.h.sandbox.state.keysOf(P.demo.account).find((k) => !before.has(k.key));
    expect(created).toBeDefined();
    expectNoSecret(snap.result, created!.key);
    expect(snap).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"create","data":{"key":{"id":"key_000006","name":"ci","key_preview":"sk-orbit-…0006","created_at":"<time>","expires_at":null,"disabled":false,"daily_usd_limit":5,"daily_request_limit":null,"object":"api_key","oauth_app":null,"usage":{"requests_today":0,"spent_today_usd":0,"spent_total_usd":0}},"fingerprint":"sha256:e0c08f8e43a9","replayed":false,"secret_file":"<config>/api-keys/sandbox/key_000006.key"}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": {
              "fingerprint": "sha256:e0c08f8e43a9",
              "key": {
                "created_at": "<time>",
                "daily_request_limit": null,
                "daily_usd_limit": 5,
                "disabled": false,
                "expires_at": null,
                "id": "key_000006",
                "key_preview": "sk-orbit-…0006",
                "name": "ci",
                "oauth_app": null,
                "object": "api_key",
                "usage": {
                  "requests_today": 0,
                  "spent_today_usd": 0,
                  "spent_total_usd": 0,
                },
              },
              "replayed": false,
              "secret_file": "<config>/api-keys/sandbox/key_000006.key",
            },
            "operation": "create",
          },
        },
        "sent": [
          {
            "body": {
              "daily_usd_limit": 5,
              "name": "ci",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:management-token>",
              "content-type": "application/json",
              "idempotency-key": "<uuid:1>",
            },
            "method": "POST",
            "path": "/api/management/v1/api-keys",
            "status": 201,
          },
        ],
      }
    `);
  });

  it('names the scope a read-only token lacks', async () => {
    expect(await reader.snap('api_keys_write', { operation: 'create', name: 'nope' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (forbidden, HTTP 403): This management token lacks the \`api_keys:write\` scope (it has api_keys:read); tokens never gain scopes, so create a new one with \`api_keys:write\`.
      Platform code: insufficient_scope
      Fix: The management token lacks the scope this needs, and tokens never gain scopes: create a new one with the \`api_keys:write\` scope in the platform account settings, then set ORBIT_MANAGEMENT_TOKEN (or \`orbit-mcp login --management-token\`).
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "name": "nope",
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:management-token>",
              "content-type": "application/json",
              "idempotency-key": "<uuid:1>",
            },
            "method": "POST",
            "path": "/api/management/v1/api-keys",
            "status": 403,
          },
        ],
      }
    `);
  });
});
