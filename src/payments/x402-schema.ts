import { z } from 'zod';

/** The x402 v2 shapes this server writes (coinbase/x402 specs/x402-specification-v2.md). */
export const X402_VERSION = 2;

const PaymentRequirements = z.looseObject({
  scheme: z.string(),
  network: z.string(),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export const PaymentRequired = z.object({
  x402Version: z.number(),
  error: z.string().optional(),
  resource: z.object({
    url: z.string(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
  }),
  accepts: z.array(PaymentRequirements),
});
export type PaymentRequired = z.infer<typeof PaymentRequired>;
