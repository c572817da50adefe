import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const t = useTool({
  credentials: credentials({ session: P.outsider.session }),
  config: { toolsets: 'teams' },
});

describe('teams_write', () => {
  it('creates a team', async () => {
    expect(await t.snap('teams_write', { operation: 'create', name: 'Ops Team' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"create","data":{"uuid":"<uuid:1>","name":"Ops Team","status":"active","role":"owner","paused_at":null,"suspended_at":null,"usage_limit_usd":null,"responses_retention_days":null,"balances":{"usd_balance":10,"crypto_balance":0},"id":101,"invite_link_enabled":false,"invite_link_token":null,"default_member_usage_limit_usd":null,"usage_limit_enforced":false,"high_spend_text_discount":false}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": {
              "balances": {
                "crypto_balance": 0,
                "usd_balance": 10,
              },
              "default_member_usage_limit_usd": null,
              "high_spend_text_discount": false,
              "id": 101,
              "invite_link_enabled": false,
              "invite_link_token": null,
              "name": "Ops Team",
              "paused_at": null,
              "responses_retention_days": null,
              "role": "owner",
              "status": "active",
              "suspended_at": null,
              "usage_limit_enforced": false,
              "usage_limit_usd": null,
              "uuid": "<uuid:1>",
            },
            "operation": "create",
          },
        },
        "sent": [
          {
            "body": {
              "name": "Ops Team",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "POST",
            "path": "/api/teams",
            "status": 201,
          },
        ],
      }
    `);
  });

  it('refuses a second team of the same name', async () => {
    expect(await t.snap('teams_write', { operation: 'create', name: 'ops team' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (conflict, HTTP 409): You already have a team named "ops team".
      Platform code: CONFLICT
      Fix: The item is not in a state that allows this; read it again before retrying.
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "name": "ops team",
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "POST",
            "path": "/api/teams",
            "status": 409,
          },
        ],
      }
    `);
  });
});
