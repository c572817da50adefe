import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('tee_verify', () => {
  it('checks the signer of a chat reply and says the bytes were not compared', async () => {
    const chat = await t.h.call('chat', {
      model: 'TEE/llama-sandbox',
      prompt: 'A private question',
      stream: false,
    });
    const { request_id } = chat.structuredContent as { request_id: string };
    expect(await t.snap('tee_verify', { request_id, model: 'TEE/llama-sandbox' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "req_<n> (TEE/llama-sandbox): signer verified (bytes not compared); signer 0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07.
      This server does not hold the bytes of that request: the signed hashes were not compared with any reply.
      passed: attestation, signature_text_format, signature_recovery
      not checked request_hash: This client did not make the request itself, so the exact request body bytes are unknown.
      not checked response_hash: This client did not make the request itself, so the exact response bytes are unknown.",
              "type": "text",
            },
          ],
          "structuredContent": {
            "bytes_checked": false,
            "checks": [
              {
                "id": "attestation",
                "reason": "A fresh attestation (nonce <nonce:1>) verified offline (chains ending at the sandbox's own roots) proves the signing address.",
                "status": "passed",
              },
              {
                "id": "signature_text_format",
                "reason": "The text is two sha256 hashes.",
                "status": "passed",
              },
              {
                "id": "signature_recovery",
                "reason": "The EIP-191 signature recovers to the attested signing address 0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07.",
                "status": "passed",
              },
              {
                "id": "request_hash",
                "reason": "This client did not make the request itself, so the exact request body bytes are unknown.",
                "status": "not_checked",
              },
              {
                "id": "response_hash",
                "reason": "This client did not make the request itself, so the exact response bytes are unknown.",
                "status": "not_checked",
              },
            ],
            "failed": [],
            "model": "TEE/llama-sandbox",
            "request_id": "req_<n>",
            "signer": "0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07",
            "signing_address": "0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07",
            "verified": true,
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/tee/signature/req_<n>",
            "query": {
              "model": "TEE/llama-sandbox",
              "signing_algo": "ecdsa",
            },
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/tee/attestation",
            "query": {
              "model": "TEE/llama-sandbox",
              "nonce": "<nonce:1>",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says it needs the model for a reply it did not capture', async () => {
    expect(await t.snap('tee_verify', { request_id: 'req_elsewhere' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): This server did not make that request (or no longer holds it), so the model is unknown.
      Fix: Pass model: the TEE/ id the request used.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [],
      }
    `);
  });

  it('says when the platform has no signature for the request', async () => {
    expect(
      await t.snap('tee_verify', { request_id: 'req_never_made', model: 'TEE/llama-sandbox' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (not_found, HTTP 404): No signature for request "req_never_made" on TEE/llama-sandbox. Signatures exist for chat, messages, responses and completions replies of enclave models, under the reply's X-Request-ID or id.
      Platform code: not_found
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
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/tee/signature/req_never_made",
            "query": {
              "model": "TEE/llama-sandbox",
              "signing_algo": "ecdsa",
            },
            "status": 404,
          },
        ],
      }
    `);
  });
});
