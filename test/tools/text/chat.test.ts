import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('chat', () => {
  it('answers a prompt without streaming', async () => {
    expect(
      await t.snap('chat', { model: 'openai/gpt-sandbox', prompt: 'Say hello', stream: false }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Sandbox reply to: "Say hello". This answer comes from the orbit sandbox, which gives the same words to the same request, so tests and offline agents can rely on it.
      [openai/gpt-sandbox · stop · 3 in / 41 out · 0.0004175 USD · req_<n>]",
              "type": "text",
            },
          ],
          "structuredContent": {
            "cost": {
              "amount": 0.0004175,
              "currency": "USD",
            },
            "finish_reason": "stop",
            "model": "openai/gpt-sandbox",
            "request_id": "req_<n>",
            "text": "Sandbox reply to: "Say hello". This answer comes from the orbit sandbox, which gives the same words to the same request, so tests and offline agents can rely on it.",
            "usage": {
              "input_tokens": 3,
              "output_tokens": 41,
            },
          },
        },
        "sent": [
          {
            "body": {
              "messages": [
                {
                  "content": "Say hello",
                  "role": "user",
                },
              ],
              "model": "openai/gpt-sandbox",
              "stream": false,
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/chat/completions",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('names the model tool when the model does not exist', async () => {
    expect(await t.snap('chat', { model: 'no/such-model', prompt: 'hi' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (bad_request, HTTP 400): Model "no/such-model" not found; list models with GET /api/v1/models.
      Platform code: model_not_found (parameter model)
      Fix: Call models_list to find a valid model id.
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "body": {
              "messages": [
                {
                  "content": "hi",
                  "role": "user",
                },
              ],
              "model": "no/such-model",
              "stream": true,
              "stream_options": {
                "include_usage": true,
              },
            },
            "headers": {
              "accept": "text/event-stream",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/chat/completions",
            "status": 400,
          },
        ],
      }
    `);
  });
});
