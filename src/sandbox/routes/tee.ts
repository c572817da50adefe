import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Hono } from 'hono';
import type { TextModel } from '../catalog/text-models.js';
import { badRequest, SandboxError } from '../errors.js';
import { resolveTextModel } from '../text/resolve.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/**
 * Enclave attestation and per-reply signatures (spec 2 §4.12, GAPS.md "Enclave attestation").
 * Discovery routes: no key needed (spec 2 §5). Only models whose id starts with `TEE/` have them.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  ctx.setEnvelope('/api/v1/tee', 'common');

  app.get('/api/v1/tee/attestation', (c) => {
    const model = enclaveModel(c.req.query('model'));
    readSigningAlgo(c.req.query('signing_algo'));
    const given = c.req.query('nonce');
    // Without a nonce the enclave picks one (deterministically here); the client must then not
    // count the reply as fresh, which is why clients send their own.
    const nonce =
      given === undefined ? sha256(utf8ToBytes(`orbit-sandbox-tee:nonce:${c.get('seq')}`)) : readNonce(given);
    return c.json(ctx.tee.attest(model.id, nonce));
  });

  app.get('/api/v1/tee/signature/:requestId', (c) => {
    const model = enclaveModel(c.req.query('model'));
    readSigningAlgo(c.req.query('signing_algo'));
    const requestId = c.req.param('requestId');
    const signed = ctx.tee.signature(requestId);
    if (!signed || signed.model !== model.id) {
      throw new SandboxError(
        404,
        `No signature for request "${requestId}" on ${model.id}. Signatures exist for chat, messages, responses and completions replies of enclave models, under the reply's X-Request-ID or id.`,
        { code: 'not_found' },
      );
    }
    const { model: _model, ...reply } = signed;
    return c.json(reply);
  });
}

function enclaveModel(requested: string | undefined): TextModel {
  const { model } = resolveTextModel(requested);
  if (!model.tee) {
    throw badRequest(
      `Model "${model.id}" does not run in a trusted execution environment; attestation exists for models whose id starts with TEE/.`,
      'invalid_parameter_value',
      'model',
    );
  }
  return model;
}

function readSigningAlgo(value: string | undefined): void {
  if (value !== undefined && value !== 'ecdsa') {
    throw badRequest(
      `signing_algo "${value}" is not offered by the sandbox enclave; use ecdsa.`,
      'invalid_parameter_value',
      'signing_algo',
    );
  }
}

/** 32 bytes as 64 hex characters (GAPS.md), `0x` allowed. */
function readNonce(value: string): Uint8Array {
  const hex = value.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw badRequest('`nonce` must be 32 bytes as 64 hex characters.', 'invalid_parameter_value', 'nonce');
  }
  return hexToBytes(hex.toLowerCase());
}
