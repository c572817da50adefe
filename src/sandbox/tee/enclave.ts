import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  ATTESTATION_PARTS,
  type AttestationPart,
  CorruptionControl,
  REPLY_PARTS,
  type ReplyPart,
} from './corruptions.js';
import { buildGpuPayload } from './gpu.js';
import { derivedKey, type EcKey, personalSign, type SigningKey, signingKey } from './keys.js';
import { buildPki, type SandboxPki, type SandboxRoot } from './pki.js';
import { buildQuote, measurementsFor, type QeParts, qeReport, qeReportSignature } from './quote.js';

/** How the signature route spells `text`, and which key echoes the nonce (GAPS.md allows both). */
export interface EnclaveOptions {
  textForm: 'hashes' | 'model';
  nonceKey: 'nonce' | 'request_nonce';
}

/** What `GET /api/v1/tee/signature/{id}` answers for one reply. */
export interface SignedReply {
  model: string;
  text: string;
  signature: string;
  signing_address: string;
  signing_algo: 'ecdsa';
}

interface Material {
  pki: SandboxPki;
  attestationKey: EcKey;
  qeAuthData: Uint8Array;
  qe: QeParts;
}

/** A sandbox left running for days keeps only the newest signatures. */
const MAX_SIGNATURES = 10_000;

/**
 * The sandbox's confidential-computing machine: one TDX host (attestation key, PCK chain) with one
 * GPU, running each enclave model with its own secp256k1 signing key. The certificates are made on
 * first use, from the sandbox clock, and are the same for the same clock.
 */
export class SandboxEnclave {
  readonly corruptions = new CorruptionControl();
  private options: EnclaveOptions = { textForm: 'hashes', nonceKey: 'nonce' };
  private material: Material | undefined;
  private readonly keys = new Map<string, SigningKey>();
  private readonly signatures = new Map<string, SignedReply>();
  private evidenceCount = 0;

  constructor(private readonly now: () => number) {}

  /** The sandbox's root certificates, shaped as the verifier's trusted roots. */
  roots(): { intel: SandboxRoot[]; nvidia: SandboxRoot[] } {
    const { pki } = this.load();
    return { intel: [pki.intelRoot], nvidia: [pki.nvidiaRoot] };
  }

  signingAddress(model: string): string {
    return this.signingKey(model).address;
  }

  getOptions(): EnclaveOptions {
    return { ...this.options };
  }

  setOptions(options: Partial<EnclaveOptions>): EnclaveOptions {
    this.options = { ...this.options, ...options };
    return this.getOptions();
  }

  /** The attestation reply for `model` and the client's 32-byte nonce. */
  attest(model: string, nonce: Uint8Array): Record<string, unknown> {
    const parts = this.corruptions.take(ATTESTATION_PARTS, model);
    const { pki, attestationKey } = this.load();
    const key = this.signingKey(model);
    const other = (bytes: Uint8Array) => sha256(concatBytes(utf8ToBytes('another nonce'), bytes));
    const reportData = concatBytes(
      hexToBytes(key.address.slice(2)),
      new Uint8Array(12),
      parts.has('report_data') ? other(nonce) : nonce,
    );
    let quote = buildQuote({
      version: 4,
      reportData,
      measurements: measurementsFor(model),
      debug: parts.has('td_debug'),
      attestationKey,
      spoilSignature: parts.has('quote_signature'),
      qe: this.qeParts(parts),
    });
    if (parts.has('quote_format')) quote = quote.subarray(0, 600);
    this.evidenceCount += 1;
    const gpu = buildGpuPayload({
      nonce,
      evidenceNonce: parts.has('gpu_nonce') ? other(nonce) : nonce,
      deviceKey: pki.deviceKey,
      chainPem: parts.has('gpu_chain') ? pki.rogueDeviceChain : pki.deviceChain,
      responderNonce: sha256(utf8ToBytes(`orbit-sandbox-tee:responder:${this.evidenceCount}`)),
      spoilSignature: parts.has('gpu_evidence_signature'),
    });
    return {
      model,
      signing_address: key.address,
      signing_algo: 'ecdsa',
      [this.options.nonceKey]: bytesToHex(parts.has('nonce_echo') ? other(nonce) : nonce),
      intel_quote: bytesToHex(quote),
      nvidia_payload: gpu,
    };
  }

  /** Reply corruptions pending for this model; `use` spends them once the reply is signed. */
  replyCorruptions(model: string, use: boolean): Set<ReplyPart> {
    return use ? this.corruptions.take(REPLY_PARTS, model) : this.corruptions.peek(REPLY_PARTS, model);
  }

  /** Signs sha256(request):sha256(response) of the exact bytes, filed under each of `ids`. */
  signReply(
    model: string,
    ids: string[],
    request: Uint8Array,
    response: Uint8Array,
    byOtherKey: boolean,
  ): void {
    const hashes = `${bytesToHex(sha256(request))}:${bytesToHex(sha256(response))}`;
    const text = this.options.textForm === 'model' ? `${model}:${hashes}` : hashes;
    const signer = byOtherKey ? signingKey(`rogue:${model}`) : this.signingKey(model);
    const signed: SignedReply = {
      model,
      text,
      signature: personalSign(signer, text),
      signing_address: this.signingAddress(model),
      signing_algo: 'ecdsa',
    };
    for (const id of ids) this.signatures.set(id, signed);
    while (this.signatures.size > MAX_SIGNATURES) {
      const oldest = this.signatures.keys().next().value;
      if (oldest === undefined) break;
      this.signatures.delete(oldest);
    }
  }

  signature(id: string): SignedReply | undefined {
    return this.signatures.get(id);
  }

  private signingKey(model: string): SigningKey {
    let key = this.keys.get(model);
    if (!key) {
      key = signingKey(model);
      this.keys.set(model, key);
    }
    return key;
  }

  private load(): Material {
    if (this.material) return this.material;
    const pki = buildPki(this.now());
    const attestationKey = derivedKey('attestation-key', 'P-256');
    const qeAuthData = Uint8Array.from({ length: 32 }, (_, i) => i);
    const report = qeReport(attestationKey, qeAuthData);
    const qe = {
      report,
      signature: qeReportSignature(report, pki.pckKey),
      authData: qeAuthData,
      pckChainPem: pki.pckChain,
    };
    this.material = { pki, attestationKey, qeAuthData, qe };
    return this.material;
  }

  /** The QE section, spoiled as the attestation corruptions ask. */
  private qeParts(parts: Set<AttestationPart>): QeParts {
    const { pki, attestationKey, qeAuthData, qe } = this.load();
    let { report, signature } = qe;
    if (parts.has('qe_report_binding')) {
      report = qeReport(attestationKey, qeAuthData, sha256(utf8ToBytes('not the attestation key')));
      signature = qeReportSignature(report, pki.pckKey);
    }
    if (parts.has('qe_report_signature'))
      signature = qeReportSignature(report, derivedKey('rogue-pck', 'P-256'));
    return {
      ...qe,
      report,
      signature,
      pckChainPem: parts.has('pck_chain') ? pki.roguePckChain : pki.pckChain,
    };
  }
}
