import { describe, expect, it } from 'vitest';
import { SANDBOX_PEOPLE as P } from '../../../src/sandbox/index.js';
import { credentials } from '../../helpers/accounts.js';
import { useTool } from '../lib.js';

const t = useTool({ credentials: credentials({ session: P.member.session, key: P.member.apiKey }) });
const keyOnly = useTool();

describe('settings_read', () => {
  it('reads the referral link with the session', async () => {
    expect(await t.snap('settings_read', { operation: 'referral_link' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"referral_link","data":{"code":"ref000003","url":"http://sandbox/?ref=ref000003"}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": {
              "code": "ref000003",
              "url": "http://sandbox/?ref=ref000003",
            },
            "operation": "referral_link",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "cookie": "orbit_session=<secret:session>",
            },
            "method": "GET",
            "path": "/api/subscription/referral-link",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says a session is needed when only a key is configured', async () => {
    expect(await keyOnly.snap('settings_read', { operation: 'retention' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (missing_credential): This needs session, and none is configured.
      Fix: Copy the \`orbit_session\` cookie of a signed-in browser on the platform and set ORBIT_SESSION to it (or pipe it to \`orbit-mcp login --session\`).
      credential: session",
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
