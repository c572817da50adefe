import { z } from 'zod';
import { InputError } from '../../src/errors.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { TEE_MODEL_PREFIX } from '../../src/tee/index.js';
import { checkReply, type ReplyVerdict } from './reply.js';
import {
  Checks,
  checksText,
  EXCHANGE_LIFETIME_MIN,
  enclaveModel,
  exchanges,
  Failed,
  NOT_HELD,
  tenantOf,
  unlisted,
} from './shared.js';

const Output = z.object({
  verified: z.boolean(),
  signer: z.string().optional(),
  bytes_checked: z.boolean(),
  failed: Failed,
  checks: Checks,
  model: unlisted(z.string()),
  request_id: unlisted(z.string()),
  signing_address: unlisted(z.string()).optional(),
});
type Output = z.infer<typeof Output>;

export default defineTool({
  name: 'tee_verify',
  title: 'Verify enclave reply',
  description:
    "Verify the signature of an enclave model's reply: signed by the attested key, not tampered with.",
  toolset: 'verify',
  view: 'attestation',
  credential: 'optional',
  nature: 'read',
  input: z.object({
    request_id: z.string(),
    model: z.string().optional().describe('default: as sent'),
  }),
  output: Output,
  async run(args, ctx) {
    if (!args.request_id.trim()) {
      throw new InputError('request_id is empty.', {
        param: 'request_id',
        fix: "Pass the reply's request id (chat returns it as request_id) or its id (chatcmpl-..., msg_..., resp_...).",
      });
    }
    const exchange = exchanges.forTenant(tenantOf(ctx)).get(args.request_id.trim());
    const model = args.model ?? exchange?.model;
    if (model === undefined) {
      throw new InputError(
        `No enclave reply with request id "${args.request_id.trim()}" is held here: ${NOT_HELD}. So its model is not known and its bytes cannot be compared.`,
        {
          param: 'request_id',
          fix: `Pass model (the ${TEE_MODEL_PREFIX} id it used) to check its signer alone, or verify on the server that made it within ${EXCHANGE_LIFETIME_MIN} minutes.`,
        },
      );
    }
    const verdict = await checkReply(ctx, {
      model: enclaveModel(model),
      requestId: args.request_id,
      exchange: exchange?.model === model ? exchange : undefined,
    });
    return outputOf(verdict);
  },
  text: (r) =>
    [
      `${r.request_id} (${r.model}): ${verdictOf(r)}; signer ${r.signer ?? 'unknown'}.`,
      r.bytes_checked
        ? 'Compared with the exact bytes this server sent and received.'
        : `This server does not hold the bytes of that request, so the signed hashes were not compared with any reply: ${NOT_HELD}.`,
      checksText(r.checks),
    ].join('\n'),
});

function verdictOf(r: Output): string {
  if (!r.verified) return `NOT verified (${r.failed.join(', ') || 'signer not attested'})`;
  return r.bytes_checked ? 'verified' : 'signer verified (bytes not compared)';
}

function outputOf(v: ReplyVerdict): Output {
  return {
    request_id: v.requestId,
    model: v.model,
    verified: v.verified,
    ...(v.signer ? { signer: v.signer } : {}),
    ...(v.attestedAddress ? { signing_address: v.attestedAddress } : {}),
    bytes_checked: v.bytesChecked,
    failed: v.failed,
    checks: v.checks,
  };
}
