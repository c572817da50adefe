import { z } from 'zod';
import { defineTool } from '../../src/mcp/define-tool.js';
import { attest, defaultEnclaveModel } from './attest.js';
import { Checks, checksText, enclaveModel, Failed, unlisted } from './shared.js';

const Output = z.object({
  verified: z.boolean(),
  signing_address: z.string().optional(),
  model: unlisted(z.string()),
  failed: Failed,
  checks: Checks,
  nonce: unlisted(z.string()),
  measurements: unlisted(z.record(z.string(), z.string())).optional(),
  trusted_roots: unlisted(z.array(z.string())),
  note: unlisted(z.string()).optional(),
});
type Output = z.infer<typeof Output>;

const SANDBOX_NOTE =
  "Chains may also end at the sandbox's own roots, trusted only because this server runs against the sandbox: this shows the checks work, not that real hardware ran the model.";

export default defineTool({
  name: 'tee_attestation',
  title: 'Enclave attestation',
  description:
    'Prove a confidential model runs in a secure enclave (TEE, trusted hardware): fresh attestation, signing address, measurements, checks.',
  toolset: 'verify',
  view: 'attestation',
  credential: 'optional',
  nature: 'read',
  input: z.object({
    model: z.string().optional().describe('TEE/ id; default: first listed'),
  }),
  output: Output,
  async run(args, ctx) {
    const model = args.model === undefined ? await defaultEnclaveModel(ctx) : enclaveModel(args.model);
    const { verdict, sandboxRoots } = await attest(ctx, model);
    return {
      model,
      verified: verdict.verified,
      ...(verdict.signingAddress ? { signing_address: verdict.signingAddress } : {}),
      nonce: verdict.nonce,
      failed: verdict.failed,
      checks: verdict.checks,
      ...(verdict.measurements ? { measurements: { ...verdict.measurements } } : {}),
      trusted_roots: [...verdict.trustedRoots.intel, ...verdict.trustedRoots.nvidia],
      ...(sandboxRoots ? { note: SANDBOX_NOTE } : {}),
    };
  },
  text: attestationText,
});

function attestationText(r: Output): string {
  const head = r.verified
    ? `${r.model}: attestation verified offline; signing address ${r.signing_address} (kept for tee_verify this session).`
    : `${r.model}: attestation NOT verified (${r.failed.join(', ') || 'required checks not done'}).`;
  const lines = [
    head,
    `nonce ${r.nonce}`,
    checksText(r.checks),
    `roots trusted: ${r.trusted_roots.join(', ')}`,
  ];
  if (r.note) lines.push(r.note);
  if (r.measurements) {
    const m = r.measurements;
    lines.push(
      `measurements (compare with published values): ${['mrtd', 'rtmr0', 'rtmr1', 'rtmr2', 'rtmr3'].map((k) => `${k}=${m[k]}`).join(' ')}`,
    );
  }
  return lines.join('\n');
}
