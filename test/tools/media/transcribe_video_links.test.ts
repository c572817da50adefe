import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('transcribe_video_links', () => {
  it('reports each link on its own and charges only successes', async () => {
    expect(
      await t.snap('transcribe_video_links', {
        urls: ['https://www.youtube.com/watch?v=abc123xyz', 'https://youtu.be/private999'],
      }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "_meta": {
            "orbit/untrusted": [
              "transcripts",
            ],
          },
          "content": [
            {
              "text": "<untrusted-web-content>
      ✓ Sandbox video abc123xyz
      This is the sandbox transcript of video abc123xyz. the quick brown fox jumps over the lazy dog and then the sandbox says hello again.

      ✗ https://youtu.be/private999: No transcript is available for this video.

      1 of 2 transcribed; cost 0.01 USD
      </untrusted-web-content>",
              "type": "text",
            },
          ],
          "structuredContent": {
            "summary": {
              "failed": 1,
              "successful": 1,
              "total_cost": 0.01,
            },
            "transcripts": [
              {
                "ok": true,
                "text": "This is the sandbox transcript of video abc123xyz. the quick brown fox jumps over the lazy dog and then the sandbox says hello again.",
                "title": "Sandbox video abc123xyz",
                "url": "https://www.youtube.com/watch?v=abc123xyz",
              },
              {
                "error": "No transcript is available for this video.",
                "ok": false,
                "url": "https://youtu.be/private999",
              },
            ],
          },
        },
        "sent": [
          {
            "body": {
              "urls": [
                "https://www.youtube.com/watch?v=abc123xyz",
                "https://youtu.be/private999",
              ],
            },
            "headers": {
              "accept": "application/json",
              "content-type": "application/json",
              "x-api-key": "<secret:demo-key>",
            },
            "method": "POST",
            "path": "/api/youtube-transcribe",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses more than 10 links before sending', async () => {
    const urls = Array.from({ length: 11 }, (_, i) => `https://youtu.be/video${i}xx`);
    expect(await t.snap('transcribe_video_links', { urls })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): Invalid arguments: urls: Too big: expected array to have <=10 items.
      Fix: Correct the named arguments (see the tool input schema) and call again.",
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
