import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('models_get', () => {
  it('returns a text model with its providers', async () => {
    expect(await t.snap('models_get', { id: 'openai/gpt-sandbox-mini' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"id":"openai/gpt-sandbox-mini","kind":"text","model":{"id":"openai/gpt-sandbox-mini","name":"GPT Sandbox Mini","description":"Small, fast and cheap chat model.","context_length":128000,"max_output_tokens":16384,"pricing":{"prompt":0.15,"completion":0.6,"unit":"per_million_tokens"},"capabilities":{"streaming":true,"tools":true,"vision":true,"reasoning":false,"prompt_caching":true,"web_search":true,"tee":false},"category":"general","owned_by":"openai","object":"model","created":1735689600,"supported_service_tiers":["flex"],"icon_url":"https://sandbox.invalid/icons/openai.svg","cost_estimate":{"typical_request_usd":0.00045,"basis":"1000 input + 500 output tokens"},"subscription_included":true,"distillationPolicy":{"status":"unknown","label":"Not stated","basis":"sandbox","sourceUrl":null,"note":"Informational only."}},"providers":{"object":"list","model":"openai/gpt-sandbox-mini","data":[{"provider_name":"Sandbox Cloud","provider_slug":"sandbox-cloud","status":"available","pricing":{"prompt":0.15,"completion":0.6,"unit":"per_million_tokens"},"context_length":128000,"max_output_tokens":16384,"supports_caching":true,"supports_tools":true,"latency_ms":400,"throughput_tps":80},{"provider_name":"Swift Inference","provider_slug":"swift-inference","status":"available","pricing":{"prompt":0.1875,"completion":0.75,"unit":"per_million_tokens"},"context_length":128000,"max_output_tokens":16384,"supports_caching":true,"supports_tools":true,"latency_ms":150,"throughput_tps":150},{"provider_name":"Budget Compute","provider_slug":"budget-compute","status":"available","pricing":{"prompt":0.12,"completion":0.48,"unit":"per_million_tokens"},"context_length":128000,"max_output_tokens":16384,"supports_caching":false,"supports_tools":true,"latency_ms":900,"throughput_tps":200}]}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "id": "openai/gpt-sandbox-mini",
            "kind": "text",
            "model": {
              "capabilities": {
                "prompt_caching": true,
                "reasoning": false,
                "streaming": true,
                "tee": false,
                "tools": true,
                "vision": true,
                "web_search": true,
              },
              "category": "general",
              "context_length": 128000,
              "cost_estimate": {
                "basis": "1000 input + 500 output tokens",
                "typical_request_usd": 0.00045,
              },
              "created": 1735689600,
              "description": "Small, fast and cheap chat model.",
              "distillationPolicy": {
                "basis": "sandbox",
                "label": "Not stated",
                "note": "Informational only.",
                "sourceUrl": null,
                "status": "unknown",
              },
              "icon_url": "https://sandbox.invalid/icons/openai.svg",
              "id": "openai/gpt-sandbox-mini",
              "max_output_tokens": 16384,
              "name": "GPT Sandbox Mini",
              "object": "model",
              "owned_by": "openai",
              "pricing": {
                "completion": 0.6,
                "prompt": 0.15,
                "unit": "per_million_tokens",
              },
              "subscription_included": true,
              "supported_service_tiers": [
                "flex",
              ],
            },
            "providers": {
              "data": [
                {
                  "context_length": 128000,
                  "latency_ms": 400,
                  "max_output_tokens": 16384,
                  "pricing": {
                    "completion": 0.6,
                    "prompt": 0.15,
                    "unit": "per_million_tokens",
                  },
                  "provider_name": "Sandbox Cloud",
                  "provider_slug": "sandbox-cloud",
                  "status": "available",
                  "supports_caching": true,
                  "supports_tools": true,
                  "throughput_tps": 80,
                },
                {
                  "context_length": 128000,
                  "latency_ms": 150,
                  "max_output_tokens": 16384,
                  "pricing": {
                    "completion": 0.75,
                    "prompt": 0.1875,
                    "unit": "per_million_tokens",
                  },
                  "provider_name": "Swift Inference",
                  "provider_slug": "swift-inference",
                  "status": "available",
                  "supports_caching": true,
                  "supports_tools": true,
                  "throughput_tps": 150,
                },
                {
                  "context_length": 128000,
                  "latency_ms": 900,
                  "max_output_tokens": 16384,
                  "pricing": {
                    "completion": 0.48,
                    "prompt": 0.12,
                    "unit": "per_million_tokens",
                  },
                  "provider_name": "Budget Compute",
                  "provider_slug": "budget-compute",
                  "status": "available",
                  "supports_caching": false,
                  "supports_tools": true,
                  "throughput_tps": 200,
                },
              ],
              "model": "openai/gpt-sandbox-mini",
              "object": "list",
            },
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/models",
            "query": {
              "detailed": "true",
            },
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/models/openai%2Fgpt-sandbox-mini/providers",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says how to find ids when the model does not exist', async () => {
    expect(await t.snap('models_get', { id: 'no/such-model' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): No text model has the id "no/such-model".
      Fix: Call models_list with kind "text" to see valid ids.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/models",
            "query": {
              "detailed": "true",
            },
            "status": 200,
          },
        ],
      }
    `);
  });
});
