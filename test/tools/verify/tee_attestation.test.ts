import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('tee_attestation', () => {
  it("verifies an enclave model's attestation against the sandbox's roots", async () => {
    expect(await t.snap('tee_attestation', { model: 'TEE/llama-sandbox' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "TEE/llama-sandbox: attestation verified offline; signing address 0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07 (kept for tee_verify this session).
      nonce <nonce:1>
      passed: nonce_echo, quote_format, report_data_binding, td_not_debug, quote_signature, qe_report_signature, pck_chain, qe_report_binding, gpu_payload_format, gpu_nonce, gpu_cert_chain, gpu_evidence_signature
      not checked measurements: No reference values were given: compare the reported MRTD and RTMRs with the values the operator publishes.
      not checked tcb_status: The platform's TCB status (up to date, out of date, revoked) needs Intel's signed TCB info from the PCS; not fetched offline.
      not checked qe_identity: The Quoting Enclave's identity needs Intel's signed QE identity from the PCS; not fetched offline.
      not checked intel_revocation: Revocation of the PCK and intermediate certificates needs Intel's CRLs; not fetched offline.
      not checked gpu_measurements: The GPU's measurements are judged against NVIDIA's reference values (RIMs) from NVIDIA's RIM service; not fetched offline.
      not checked gpu_revocation: Revocation of the GPU's certificates needs NVIDIA's OCSP service; not asked offline.
      not checked online_appraisal: Intel's and NVIDIA's attestation services (Intel Trust Authority, NVIDIA NRAS) were not asked: this verifier works offline.
      roots trusted: Intel SGX Root CA, Orbit Sandbox SGX Root CA (sandbox only), NVIDIA Device Identity CA, Orbit Sandbox Device Identity CA (sandbox only)
      Chains may also end at the sandbox's own roots, trusted only because this server runs against the sandbox: this shows the checks work, not that real hardware ran the model.
      measurements (compare with published values): mrtd=257ff09552265a499858eca6bb1f2c4d97acd5b6975df562e87233b5a4f316b25d0bcb745687737688c956c5ab6cf97f rtmr0=17ca5e9911dc21295da92744a737f3709ad66cfbac8b66f2b09586372e8200849cbd58c542f4b9d7da792f9b69381b1c rtmr1=df2448fdbb25d71ddf3f1717f7e1711d46a71450b1c773e73342629c7e4a2727b2f8a212ae2799d54c43fdc3000e1960 rtmr2=e50fd483e9243a77607db913874c4926f06fe99effb6d1b9af21dd8e9528bdd78993bf55bdac7cdee6e9f0e6cfc0ed60 rtmr3=6ced9a1e7ffc43a2a879fece6d89cb2e65f707a9dcf2d271e1973c9d40e5bae378d6424301a4f54bf84625620c83eec5",
              "type": "text",
            },
          ],
          "structuredContent": {
            "checks": [
              {
                "id": "nonce_echo",
                "reason": "The reply echoes our nonce.",
                "status": "passed",
              },
              {
                "id": "quote_format",
                "reason": "intel_quote parses as a TDX quote v4 (TDX 1.0).",
                "status": "passed",
              },
              {
                "id": "report_data_binding",
                "reason": "report_data is the signing address padded to 32 bytes followed by our nonce.",
                "status": "passed",
              },
              {
                "id": "td_not_debug",
                "reason": "The TD is not in debug mode.",
                "status": "passed",
              },
              {
                "id": "quote_signature",
                "reason": "The attestation key's ECDSA P-256 signature over header and TD report verifies.",
                "status": "passed",
              },
              {
                "id": "qe_report_signature",
                "reason": "The QE report's signature verifies with the PCK certificate's key.",
                "status": "passed",
              },
              {
                "id": "pck_chain",
                "reason": "The PCK chain (3 certificates) leads to the trusted root "Orbit Sandbox SGX Root CA (sandbox only)".",
                "status": "passed",
              },
              {
                "id": "qe_report_binding",
                "reason": "The QE report binds the attestation key: sha256(key || QE auth data) matches.",
                "status": "passed",
              },
              {
                "id": "measurements",
                "reason": "No reference values were given: compare the reported MRTD and RTMRs with the values the operator publishes.",
                "status": "not_checked",
              },
              {
                "id": "tcb_status",
                "reason": "The platform's TCB status (up to date, out of date, revoked) needs Intel's signed TCB info from the PCS; not fetched offline.",
                "status": "not_checked",
              },
              {
                "id": "qe_identity",
                "reason": "The Quoting Enclave's identity needs Intel's signed QE identity from the PCS; not fetched offline.",
                "status": "not_checked",
              },
              {
                "id": "intel_revocation",
                "reason": "Revocation of the PCK and intermediate certificates needs Intel's CRLs; not fetched offline.",
                "status": "not_checked",
              },
              {
                "id": "gpu_payload_format",
                "reason": "nvidia_payload carries evidence for 1 GPU.",
                "status": "passed",
              },
              {
                "id": "gpu_nonce",
                "reason": "The GPU payload and every device's signed evidence carry our nonce.",
                "status": "passed",
              },
              {
                "id": "gpu_cert_chain",
                "reason": "Every GPU certificate chain leads to the trusted root "Orbit Sandbox Device Identity CA (sandbox only)".",
                "status": "passed",
              },
              {
                "id": "gpu_evidence_signature",
                "reason": "Every GPU's signed evidence verifies with its device certificate's key.",
                "status": "passed",
              },
              {
                "id": "gpu_measurements",
                "reason": "The GPU's measurements are judged against NVIDIA's reference values (RIMs) from NVIDIA's RIM service; not fetched offline.",
                "status": "not_checked",
              },
              {
                "id": "gpu_revocation",
                "reason": "Revocation of the GPU's certificates needs NVIDIA's OCSP service; not asked offline.",
                "status": "not_checked",
              },
              {
                "id": "online_appraisal",
                "reason": "Intel's and NVIDIA's attestation services (Intel Trust Authority, NVIDIA NRAS) were not asked: this verifier works offline.",
                "status": "not_checked",
              },
            ],
            "failed": [],
            "measurements": {
              "mrConfigId": "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
              "mrOwner": "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
              "mrOwnerConfig": "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
              "mrSeam": "acc08e052a8d6622622e21da1e7392ecdd3e62e5ec09d3dd0b8f5d6b01e74b230cb2352bcf76fe14deb71240d3dd530f",
              "mrtd": "257ff09552265a499858eca6bb1f2c4d97acd5b6975df562e87233b5a4f316b25d0bcb745687737688c956c5ab6cf97f",
              "rtmr0": "17ca5e9911dc21295da92744a737f3709ad66cfbac8b66f2b09586372e8200849cbd58c542f4b9d7da792f9b69381b1c",
              "rtmr1": "df2448fdbb25d71ddf3f1717f7e1711d46a71450b1c773e73342629c7e4a2727b2f8a212ae2799d54c43fdc3000e1960",
              "rtmr2": "e50fd483e9243a77607db913874c4926f06fe99effb6d1b9af21dd8e9528bdd78993bf55bdac7cdee6e9f0e6cfc0ed60",
              "rtmr3": "6ced9a1e7ffc43a2a879fece6d89cb2e65f707a9dcf2d271e1973c9d40e5bae378d6424301a4f54bf84625620c83eec5",
              "tdAttributes": "0000001000000000",
              "teeTcbSvn": "<media:1>",
              "xfam": "e702060000000000",
            },
            "model": "TEE/llama-sandbox",
            "nonce": "<nonce:1>",
            "note": "Chains may also end at the sandbox's own roots, trusted only because this server runs against the sandbox: this shows the checks work, not that real hardware ran the model.",
            "signing_address": "0x7084C3E92fec68dB52feaF8C4A791d0Ff49CAf07",
            "trusted_roots": [
              "Intel SGX Root CA",
              "Orbit Sandbox SGX Root CA (sandbox only)",
              "NVIDIA Device Identity CA",
              "Orbit Sandbox Device Identity CA (sandbox only)",
            ],
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

  it('says when the model has no attestation', async () => {
    expect(await t.snap('tee_attestation', { model: 'TEE/no-such-model' })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (bad_request, HTTP 400): Model "TEE/no-such-model" not found; list models with GET /api/v1/models.
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
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/tee/attestation",
            "query": {
              "model": "TEE/no-such-model",
              "nonce": "<nonce:1>",
            },
            "status": 400,
          },
        ],
      }
    `);
  });
});
