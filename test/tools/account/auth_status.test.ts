import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('auth_status', () => {
  it('names the platform and the credentials present, without their values', async () => {
    expect(await t.snap('auth_status')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "sandbox at http://sandbox; api_key: yes (sandbox), management_token: no, session: no",
              "type": "text",
            },
          ],
          "structuredContent": {
            "base_url": "http://sandbox",
            "can_sign_in": false,
            "credentials": [
              {
                "kind": "api_key",
                "present": true,
                "source": "sandbox",
              },
              {
                "kind": "management_token",
                "present": false,
                "source": undefined,
              },
              {
                "kind": "session",
                "present": false,
                "source": undefined,
              },
            ],
            "platform": "sandbox",
          },
        },
        "sent": [],
      }
    `);
  });

  it('refuses an argument it does not take', async () => {
    expect(await t.snap('auth_status', { verbose: true })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Unknown argument \`verbose\`.
      Fix: auth_status takes no arguments; call it with {}.",
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
