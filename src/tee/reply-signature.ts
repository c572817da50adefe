import { z } from 'zod';
import { readReply } from '../replies/read.js';
import { sha256Hex } from './bytes.js';
import { type Check, type CheckId, failed, failedIds, guard, notChecked, passed } from './checks.js';
import { recoverPersonalSigner, sameAddress } from './eip191.js';

/** `GET /api/v1/tee/signature/{requestId}` reply (spec 2 §4.12); unknown keys are ignored. */
const SignatureReplySchema = z.object({
  text: z.string(),
  signature: z.string(),
  signing_address: z.string().optional(),
  signing_algo: z.string().optional(),
});

export interface SignedText {
  /** Present in the `<model>:<sha256 req>:<sha256 resp>` form. */
  model?: string;
  requestHash: string;
  responseHash: string;
}

/** Both forms of GAPS.md: `<req>:<resp>` and `<model>:<req>:<resp>` (a model id may hold colons). */
export function parseSignedText(text: string): SignedText | undefined {
  const parts = text.split(':');
  const responseHash = parts.pop()?.toLowerCase();
  const requestHash = parts.pop()?.toLowerCase();
  const isHash = (value: string | undefined): value is string => !!value && /^[0-9a-f]{64}$/.test(value);
  if (!isHash(requestHash) || !isHash(responseHash)) return undefined;
  const model = parts.join(':');
  return model ? { model, requestHash, responseHash } : { requestHash, responseHash };
}

export interface ReplySignatureInput {
  /** The signature route's reply, as parsed JSON. */
  reply: unknown;
  /** The signing address an attestation proved; without one the signer cannot be trusted. */
  attestedAddress: string | undefined;
  /** The model the request named, to compare with the model in the signed text. */
  model?: string;
  /** The exact request body bytes this client sent, when it made the request itself. */
  requestBody?: Uint8Array | string;
  /** The exact response bytes it received (for a stream, all SSE bytes concatenated). */
  responseBody?: Uint8Array | string;
}

export interface ReplySignatureVerdict {
  verified: boolean;
  /** The address recovered from the signature. */
  signer?: string;
  text?: string;
  checks: Check[];
  failed: CheckId[];
}

/** Checks one reply's signature: its signer, and that it signed the exact bytes exchanged. */
export function verifyReplySignature(input: ReplySignatureInput): ReplySignatureVerdict {
  const parsed = readReply(SignatureReplySchema, input.reply);
  if (!parsed.success) {
    const checks = [
      failed('signature_text_format', 'The signature reply lacks a `text` or `signature` string.'),
    ];
    return { verified: false, checks, failed: failedIds(checks) };
  }
  const { text, signature } = parsed.data;
  const signed = parseSignedText(text);
  let signer: string | undefined;
  const recovery = guard('signature_recovery', () => {
    signer = recoverPersonalSigner(text, signature);
    if (!input.attestedAddress) {
      return notChecked(
        'signature_recovery',
        `The signer is ${signer}, but no attested signing address was given to compare it with.`,
      );
    }
    return sameAddress(signer, input.attestedAddress)
      ? passed(
          'signature_recovery',
          `The EIP-191 signature recovers to the attested signing address ${signer}.`,
        )
      : failed(
          'signature_recovery',
          `The signature recovers to ${signer}, not the attested ${input.attestedAddress}.`,
        );
  });
  const checks = [
    formatCheck(signed, input.model),
    recovery,
    hashCheck('request_hash', 'request body', signed?.requestHash, input.requestBody),
    hashCheck('response_hash', 'response', signed?.responseHash, input.responseBody),
  ];
  const verified = recovery.status === 'passed' && !checks.some((check) => check.status === 'failed');
  return { verified, ...(signer ? { signer } : {}), text, checks, failed: failedIds(checks) };
}

function formatCheck(signed: SignedText | undefined, model: string | undefined): Check {
  const id = 'signature_text_format';
  if (!signed)
    return failed(id, 'The signed text is neither "<sha256 req>:<sha256 resp>" nor "<model>:<req>:<resp>".');
  if (signed.model && model && signed.model !== model) {
    return failed(id, `The signed text names model "${signed.model}", not "${model}".`);
  }
  return passed(
    id,
    signed.model
      ? `The text binds model "${signed.model}" and two sha256 hashes.`
      : 'The text is two sha256 hashes.',
  );
}

function hashCheck(
  id: CheckId,
  what: string,
  signedHash: string | undefined,
  bytes: Uint8Array | string | undefined,
): Check {
  if (bytes === undefined) {
    return notChecked(
      id,
      `This client did not make the request itself, so the exact ${what} bytes are unknown.`,
    );
  }
  if (!signedHash) return notChecked(id, 'The signed text carries no hash to compare with.');
  const actual = sha256Hex(bytes);
  return actual === signedHash
    ? passed(id, `sha256 of the exact ${what} bytes matches the signed hash.`)
    : failed(id, `sha256 of the exact ${what} bytes is ${actual}; the enclave signed ${signedHash}.`);
}
