import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const t = useTool({ credentials: credentials({ session: P.demo.session }), config: { toolsets: 'teams' } });

describe('teams_read', () => {
  it('lists your teams with the session cookie the platform reads', async () => {
    expect(await t.snap('teams_read', { operation: 'list' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"list","data":[{"uuid":"<uuid:1>","name":"Sandbox Team","status":"active","role":"owner"},{"uuid":"<uuid:2>","name":"Research Lab","status":"active","role":"member"}]}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": [
              {
                "name": "Sandbox Team",
                "role": "owner",
                "status": "active",
                "uuid": "<uuid:1>",
              },
              {
                "name": "Research Lab",
                "role": "member",
                "status": "active",
                "uuid": "<uuid:2>",
              },
            ],
            "operation": "list",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "GET",
            "path": "/api/teams",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says when a team does not exist', async () => {
    expect(
      await t.snap('teams_read', { operation: 'members', team: '00000000-0000-4000-8000-000000000999' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (not_found, HTTP 404): No team <uuid:1>.
      Platform code: NOT_FOUND
      Fix: Check the id; list the items first to find a valid one.
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
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "GET",
            "path": "/api/teams/<uuid:1>/members",
            "status": 404,
          },
        ],
      }
    `);
  });
});
