import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('tee_verify', () => {
  it('verifies a plain chat on an enclave model byte for byte: the server kept its bytes', async () => {
    const chat = await t.h.call('chat', {
      model: 'TEE/llama-sandbox',
      prompt: 'A private question',
      stream: false,
    });
    const { request_id } = chat.structuredContent as { request_id: string };
    expect(await t.snap('tee_verify', { request_id })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "req_<n> (TEE/llama-sandbox): verified; signer 0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07.
      Compared with the exact bytes this server sent and received.
      passed: attestation, signature_text_format, signature_recovery, request_hash, response_hash",
              "type": "text",
            },
          ],
          "structuredContent": {
            "bytes_checked": true,
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
                "reason": "sha256 of the exact request body bytes matches the signed hash.",
                "status": "passed",
              },
              {
                "id": "response_hash",
                "reason": "sha256 of the exact response bytes matches the signed hash.",
                "status": "passed",
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

  it('checks the signer of a reply made elsewhere and says the bytes were not compared', async () => {
    // Made straight on the platform, not through this server: it holds no bytes of it.
    const res = await fetch(`${t.h.sandbox.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.h.sandbox.demoKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'TEE/llama-sandbox',
        messages: [{ role: 'user', content: 'Elsewhere' }],
      }),
    });
    const request_id = res.headers.get('x-request-id') ?? '';
    expect(await t.snap('tee_verify', { request_id, model: 'TEE/llama-sandbox' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "req_<n> (TEE/llama-sandbox): signer verified (bytes not compared); signer 0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07.
      This server does not hold the bytes of that request, so the signed hashes were not compared with any reply: it was not made by this server, it is older than 30 minutes or past the last 100 kept per key, or another replica made it (each keeps its own).
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
                "reason": "The signing address was proved by an attestation verified offline at <time> (kept for the session).",
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
        ],
      }
    `);
  });

  it('says why it holds no reply under an unknown request id, and what to pass instead', async () => {
    expect(await t.snap('tee_verify', { request_id: 'req_elsewhere' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): No enclave reply with request id "req_elsewhere" is held here: it was not made by this server, it is older than 30 minutes or past the last 100 kept per key, or another replica made it (each keeps its own). So its model is not known and its bytes cannot be compared.
      Fix: Pass model (the TEE/ id it used) to check its signer alone, or verify on the server that made it within 30 minutes.",
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
