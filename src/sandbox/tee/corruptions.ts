import { z } from 'zod';

/**
 * One part of the enclave's evidence broken on purpose, so a verifier's every failure can be
 * tested. Attestation parts spoil the next attestation replies; reply parts spoil the next signed
 * chat replies (the signature made for them, or the bytes sent).
 */
export const ATTESTATION_PARTS = [
  /** The reply echoes another nonce (the quote still binds ours). */
  'nonce_echo',
  /** The quote's report_data binds another nonce. */
  'report_data',
  /** The TD runs in debug mode. */
  'td_debug',
  /** The attestation key's signature over header and TD report is spoiled. */
  'quote_signature',
  /** The QE report is signed by a key other than the PCK certificate's. */
  'qe_report_signature',
  /** The QE report does not bind the attestation key. */
  'qe_report_binding',
  /** The PCK chain leads to a rogue root with the sandbox root's name. */
  'pck_chain',
  /** The quote is cut short. */
  'quote_format',
  /** The GPU evidence is made for another nonce. */
  'gpu_nonce',
  /** The GPU device chain leads to a rogue root. */
  'gpu_chain',
  /** The GPU evidence signature is spoiled. */
  'gpu_evidence_signature',
] as const;

export const REPLY_PARTS = [
  /** The reply is signed by a key other than the attested one. */
  'signing_key',
  /** The bytes sent differ from the bytes signed (altered in transit). */
  'response_bytes',
] as const;

export type AttestationPart = (typeof ATTESTATION_PARTS)[number];
export type ReplyPart = (typeof REPLY_PARTS)[number];
export type CorruptionPart = AttestationPart | ReplyPart;

export const CorruptionSpec = z.strictObject({
  part: z.enum([...ATTESTATION_PARTS, ...REPLY_PARTS]),
  /** Only for this model (catalog id); every enclave model when absent. */
  model: z.string().optional(),
  /** How many attestations or signed replies it spoils. */
  times: z.number().int().positive().default(1),
});
export type CorruptionSpec = z.input<typeof CorruptionSpec>;

export interface ListedCorruption {
  id: string;
  part: CorruptionPart;
  model?: string;
  remaining: number;
}

export class CorruptionControl {
  private pending: ListedCorruption[] = [];
  private counter = 0;

  add(spec: CorruptionSpec): string {
    const parsed = CorruptionSpec.parse(spec);
    this.counter += 1;
    const id = `corruption_${this.counter}`;
    this.pending.push({ id, part: parsed.part, model: parsed.model, remaining: parsed.times });
    return id;
  }

  clear(): number {
    const count = this.pending.length;
    this.pending = [];
    return count;
  }

  list(): readonly ListedCorruption[] {
    return this.pending;
  }

  /** The pending parts among `parts` that apply to this model, without using them up. */
  peek<P extends CorruptionPart>(parts: readonly P[], model: string): Set<P> {
    return new Set(this.matching(parts, model).map((entry) => entry.part));
  }

  /** The pending parts among `parts` that apply to this model, each used up by one. */
  take<P extends CorruptionPart>(parts: readonly P[], model: string): Set<P> {
    const matching = this.matching(parts, model);
    for (const entry of matching) entry.remaining -= 1;
    this.pending = this.pending.filter((entry) => entry.remaining > 0);
    return new Set(matching.map((entry) => entry.part));
  }

  private matching<P extends CorruptionPart>(
    parts: readonly P[],
    model: string,
  ): (ListedCorruption & { part: P })[] {
    return this.pending.filter(
      (entry): entry is ListedCorruption & { part: P } =>
        parts.some((part) => part === entry.part) && (!entry.model || entry.model === model),
    );
  }
}
