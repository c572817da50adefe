/**
 * What a verification says about each thing it looked at. A check that needs a vendor's online
 * service is `not_checked`, with the reason, never silently left out or reported as passed.
 */
type CheckStatus = 'passed' | 'failed' | 'not_checked';

export type CheckId =
  // attestation reply
  | 'nonce_echo'
  // Intel TDX quote
  | 'quote_format'
  | 'report_data_binding'
  | 'td_not_debug'
  | 'quote_signature'
  | 'qe_report_signature'
  | 'qe_report_binding'
  | 'pck_chain'
  | 'measurements'
  | 'tcb_status'
  | 'qe_identity'
  | 'intel_revocation'
  // NVIDIA GPU evidence
  | 'gpu_payload_format'
  | 'gpu_nonce'
  | 'gpu_cert_chain'
  | 'gpu_evidence_signature'
  | 'gpu_measurements'
  | 'gpu_revocation'
  // online appraisal by the vendors' services
  | 'online_appraisal'
  // per-request signature
  | 'signature_text_format'
  | 'signature_recovery'
  | 'request_hash'
  | 'response_hash';

export interface Check {
  id: CheckId;
  status: CheckStatus;
  /** One sentence a person can read: what was compared, or why it was not. */
  reason: string;
}

export const passed = (id: CheckId, reason: string): Check => ({ id, status: 'passed', reason });
export const failed = (id: CheckId, reason: string): Check => ({ id, status: 'failed', reason });
export const notChecked = (id: CheckId, reason: string): Check => ({ id, status: 'not_checked', reason });

/** Runs a check body; a format error inside it fails the check with the error's message. */
export function guard(id: CheckId, body: () => Check): Check {
  try {
    return body();
  } catch (error) {
    return failed(id, error instanceof Error ? error.message : String(error));
  }
}

/** The ids of the failed checks, in order, for a short verdict. */
export const failedIds = (checks: readonly Check[]): CheckId[] =>
  checks.filter((check) => check.status === 'failed').map((check) => check.id);
