import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('auth_logout', () => {
  it('says nothing was stored when the key came from the environment', async () => {
    expect(await t.snap('auth_logout')).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Nothing was stored by this server.",
              "type": "text",
            },
          ],
          "structuredContent": {
            "removed": [],
          },
        },
        "sent": [],
      }
    `);
  });

  it('refuses an argument it does not take', async () => {
    expect(await t.snap('auth_logout', { verbose: true })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Unknown argument \`verbose\`.
      Fix: auth_logout takes no arguments; call it with {}.",
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
