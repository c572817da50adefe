import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const withKey = useTool();
const bare = useTool({ credentials: [] });

describe('auth_login', () => {
  it('reports the key already configured', async () => {
    expect(await withKey.snap('auth_login')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Signed in (API key from sandbox).",
              "type": "text",
            },
          ],
          "structuredContent": {
            "signed_in": true,
            "source": "sandbox",
          },
        },
        "sent": [],
      }
    `);
  });

  it('refuses an argument it does not take', async () => {
    expect(await withKey.snap('auth_login', { verbose: true })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Unknown argument \`verbose\`.
      Fix: auth_login takes: callback_url.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [],
      }
    `);
  });

  it('says how to get a key when none is configured and sign-in is not possible', async () => {
    expect(await bare.snap('auth_login')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Not signed in. Sign-in is not available in this mode; send an API key with each request or set ORBIT_API_KEY.",
              "type": "text",
            },
          ],
          "structuredContent": {
            "note": "Sign-in is not available in this mode; send an API key with each request or set ORBIT_API_KEY.",
            "signed_in": false,
          },
        },
        "sent": [],
      }
    `);
  });
});
