import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const t = useTool({ credentials: credentials({ session: P.demo.session, key: P.demo.apiKey }) });

describe('settings_write', () => {
  it('sets the responses retention, sending the spec body with the session', async () => {
    expect(
      await t.snap('settings_write', { operation: 'retention', retention_days: 30 }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"retention","data":{"retention_days":30}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": {
              "retention_days": 30,
            },
            "operation": "retention",
          },
        },
        "sent": [
          {
            "body": {
              "responsesRetentionDays": 30,
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "POST",
            "path": "/api/user/responses-retention",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('asks for the value to set', async () => {
    expect(await t.snap('settings_write', { operation: 'retention' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Operation "retention" needs \`retention_days\`.
      Fix: Pass a whole number of days from 0 to 365, or null to clear your override.",
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
