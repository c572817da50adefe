import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { TEXT_MODELS } from '../catalog/text-models.js';
import { CONTROL_PREFIX } from '../constants.js';
import { badRequest } from '../errors.js';
import { ATTESTATION_PARTS, CorruptionSpec, REPLY_PARTS } from '../tee/corruptions.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

const OptionsSpec = z.strictObject({
  textForm: z.enum(['hashes', 'model']).optional(),
  nonceKey: z.enum(['nonce', 'request_nonce']).optional(),
});

/**
 * Control of the sandbox enclave, for tests of a verifier: its roots (to trust them for the
 * sandbox only), each enclave model's signing address, the reply shapes GAPS.md allows, and
 * corruptions that break one part of the evidence at a time.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const at = (path: string) => `${CONTROL_PREFIX}/tee${path}`;
  const parse = <T>(schema: z.ZodType<T>, what: string, value: unknown): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw badRequest(`Invalid ${what}: ${z.prettifyError(parsed.error)}`, 'invalid_parameter_value');
    return parsed.data;
  };

  app.get(at(''), (c) =>
    c.json({
      roots: ctx.tee.roots(),
      models: TEXT_MODELS.filter((m) => m.tee).map((m) => ({
        id: m.id,
        signing_address: ctx.tee.signingAddress(m.id),
      })),
      options: ctx.tee.getOptions(),
      parts: { attestation: ATTESTATION_PARTS, reply: REPLY_PARTS },
      corruptions: ctx.tee.corruptions.list(),
    }),
  );
  app.get(at('/roots'), (c) => c.json(ctx.tee.roots()));

  app.patch(at('/options'), (c) => c.json(ctx.tee.setOptions(parse(OptionsSpec, 'options', jsonBody(c)))));

  app.post(at('/corruptions'), (c) => {
    const spec = parse(CorruptionSpec, 'corruption', jsonBody(c));
    return c.json({ id: ctx.tee.corruptions.add(spec) }, 201);
  });
  app.get(at('/corruptions'), (c) => c.json({ data: ctx.tee.corruptions.list() }));
  app.delete(at('/corruptions'), (c) => c.json({ cleared: ctx.tee.corruptions.clear() }));
}
