import { z } from 'zod';
import type { ToolContext } from '../../src/mcp/define-tool.js';
import { type ReplySignatureVerdict, verifyReplySignature } from '../../src/tee/index.js';
import { type Attestation, attest, cachedKey } from './attest.js';
import type { CheckOut, Exchange } from './shared.js';

/** `GET /api/v1/tee/signature/{requestId}` (spec 2 §4.12): `text`, `signature`, `signing_address`. */
const SignatureReply = z.looseObject({
  text: z.string(),
  signature: z.string(),
  signing_address: z.string().optional(),
  signing_algo: z.string().optional(),
});

export interface ReplyVerdict {
  requestId: string;
  model: string;
  /** The signer is an attested enclave key and no check failed. */
  verified: boolean;
  /** The address the signature recovers to. */
  signer?: string;
  /** The signing address a verified attestation proved. */
  attestedAddress?: string;
  /** True when the exact bytes of the exchange were compared with the signed hashes. */
  bytesChecked: boolean;
  /** `attestation` first, then the signature's own checks. */
  checks: CheckOut[];
  failed: string[];
}

type Scope = Pick<ToolContext, 'api' | 'credentials' | 'target'>;

/**
 * Fetches one reply's signature and checks it: the signer against an attested address (the one
 * kept this session, or a fresh attestation), and, with the exchange's exact bytes, the hashes.
 * A signer that does not match a kept address is compared once more with a fresh attestation:
 * the enclave may have restarted with a new key since.
 */
export async function checkReply(
  ctx: Scope,
  input: { model: string; requestId: string; exchange?: Exchange },
): Promise<ReplyVerdict> {
  const { model, requestId, exchange } = input;
  const { data: reply } = await ctx.api.request({
    method: 'GET',
    path: `/api/v1/tee/signature/${encodeURIComponent(requestId)}`,
    query: { model, signing_algo: 'ecdsa' },
    credential: 'optional',
    schema: SignatureReply,
  });
  const kept = cachedKey(ctx, model);
  let key: KeyCheck = kept
    ? { address: kept.address, check: passedKept(kept.at) }
    : fromAttestation(await attest(ctx, model));
  const verify = (address: string | undefined) =>
    verifyReplySignature({
      reply,
      attestedAddress: address,
      model,
      requestBody: exchange?.request,
      responseBody: exchange?.response,
    });
  let signature = verify(key.address);
  if (kept && recoveryFailed(signature)) {
    key = fromAttestation(await attest(ctx, model));
    signature = verify(key.address);
  }
  const checks: CheckOut[] = [key.check, ...signature.checks];
  return {
    requestId,
    model,
    verified: key.check.status === 'passed' && signature.verified,
    ...(signature.signer ? { signer: signature.signer } : {}),
    ...(key.address ? { attestedAddress: key.address } : {}),
    bytesChecked: exchange !== undefined,
    checks,
    failed: checks.filter((c) => c.status === 'failed').map((c) => c.id),
  };
}

interface KeyCheck {
  address?: string;
  check: CheckOut;
}

const passedKept = (at: string): CheckOut => ({
  id: 'attestation',
  status: 'passed',
  reason: `The signing address was proved by an attestation verified offline at ${at} (kept for the session).`,
});

function fromAttestation({ verdict, sandboxRoots }: Attestation): KeyCheck {
  const roots = sandboxRoots ? " (chains ending at the sandbox's own roots)" : '';
  if (verdict.verified && verdict.signingAddress) {
    return {
      address: verdict.signingAddress,
      check: {
        id: 'attestation',
        status: 'passed',
        reason: `A fresh attestation (nonce ${verdict.nonce}) verified offline${roots} proves the signing address.`,
      },
    };
  }
  return {
    check: {
      id: 'attestation',
      status: 'failed',
      reason: `A fresh attestation did not verify (${verdict.failed.join(', ') || 'required checks not done'}); no signing address can be trusted. tee_attestation shows why.`,
    },
  };
}

const recoveryFailed = (verdict: ReplySignatureVerdict) =>
  verdict.checks.some((c) => c.id === 'signature_recovery' && c.status === 'failed');
