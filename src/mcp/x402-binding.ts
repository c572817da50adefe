/**
 * The x402 MCP binding (coinbase/x402 specs/transports-v2/mcp.md), beside orbit's own flow:
 * - a quote answer becomes `isError: true` with the `PaymentRequired` in `structuredContent` (orbit's
 *   own fields kept beside it) and, as the binding requires, in `content[0]` as `{"x402/error": …}`;
 * - a `tools/call` whose `_meta["x402/payment"]` pays a kept quote is run as `x402_complete` with that
 *   payment as `X-PAYMENT`, the same completion path (claimed once, counted by the budget) as a call
 *   of x402_complete itself; its result comes back as the paid tool's, with the settlement decoded
 *   from `X-PAYMENT-RESPONSE` in `_meta["x402/payment-response"]` (when the reply carries none that
 *   can be read, `_meta["orbit/settlement"]` says the settlement is not confirmed instead).
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import { isRecord } from '../lang.js';
import {
  caip2,
  PaymentRequired,
  platformNetwork,
  resourceUrl,
  X402_VERSION,
} from '../payments/x402-required.js';
import { fieldsWithText, UNTRUSTED_META } from '../untrusted.js';
import { PLATFORM_WORD } from '../word.js';
import type { ToolResult } from './render.js';

const PAYMENT_META = 'x402/payment';
const PAYMENT_RESPONSE_META = 'x402/payment-response';
const COMPLETE_TOOL = 'x402_complete';
/** Beside the result when the settlement is not known (the binding's SettlementResponse is left out). */
const SETTLEMENT_META = `${PLATFORM_WORD}/settlement`;
const UNCONFIRMED =
  'Settlement not confirmed: the platform accepted the payment and ran the call, but its reply carried no readable X-PAYMENT-RESPONSE (no transaction). Check the wallet for the transaction before paying again.';

const PaymentPayload = z.looseObject({
  x402Version: z.number(),
  resource: z.unknown().optional(),
  accepted: z.looseObject({
    scheme: z.string(),
    network: z.string(),
    extra: z.looseObject({
      quote_id: z.string().min(1),
      rail: z.string().optional(),
      tool: z.string().optional(),
    }),
  }),
  payload: z.record(z.string(), z.unknown()),
});
type PaymentPayload = z.infer<typeof PaymentPayload>;

/** A tools/call paying a quote: what x402_complete is called with, and what the answer needs. */
export interface PaidCall {
  tool: string;
  arguments: { quote_id: string; x_payment: string };
  accepted: PaymentPayload['accepted'];
}

/**
 * The payment a tools/call carries, as the x402_complete call that spends it; undefined when it
 * carries none. A payment this server cannot have asked for is refused before anything is sent.
 */
export function paidCallOf(name: string, meta: Record<string, unknown> | undefined): PaidCall | undefined {
  const raw = meta?.[PAYMENT_META];
  if (raw === undefined) return undefined;
  const parsed = PaymentPayload.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(
      `_meta["${PAYMENT_META}"] is not an x402 PaymentPayload (at \`${issue?.path.join('.') || '(payload)'}\`: ${issue?.message}); nothing was sent.`,
      { fix: 'Sign one entry of the accepts[] of this tool’s PaymentRequired answer and send that payment.' },
    );
  }
  const { accepted } = parsed.data;
  if (accepted.extra.tool !== undefined && accepted.extra.tool !== name) {
    throw new InputError(
      `This payment is for a ${accepted.extra.tool} quote, not ${name}; nothing was sent.`,
      { fix: `Send it with a call of ${accepted.extra.tool}.` },
    );
  }
  // The platform reads X-PAYMENT as base64 JSON naming the quote (paymentId) and its own network name.
  const forPlatform = {
    ...parsed.data,
    scheme: accepted.scheme,
    network: platformNetwork(accepted.network),
    paymentId: accepted.extra.quote_id,
  };
  return {
    tool: COMPLETE_TOOL,
    arguments: {
      quote_id: accepted.extra.quote_id,
      x_payment: Buffer.from(JSON.stringify(forPlatform)).toString('base64'),
    },
    accepted,
  };
}

const QuoteAnswer = z.looseObject({ payment: z.looseObject({ x402: PaymentRequired }) });

/** A quote answer with an x402 form, in the binding's shape; any other result as it is. */
export function asPaymentRequired(result: ToolResult): ToolResult {
  // Every result passes here: only one that carries an x402 form is parsed.
  const form = (result.structuredContent as { payment?: unknown } | undefined)?.payment;
  if (result.isError || !isRecord(form) || form.x402 === undefined) return result;
  const quote = QuoteAnswer.safeParse(result.structuredContent);
  if (!quote.success) return result;
  const { x402, ...payment } = quote.data.payment;
  return {
    ...result,
    isError: true,
    // Orbit's fields stay beside the PaymentRequired: its other rails and x402_complete still work.
    structuredContent: { ...quote.data, payment, ...x402 },
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          'x402/error': { code: 402, message: x402.error ?? 'Payment required', data: x402 },
        }),
      },
      ...result.content,
    ],
  };
}

const Completed = z.looseObject({
  status: z.literal('completed'),
  result: z.record(z.string(), z.unknown()).optional(),
  receipt: z
    .looseObject({
      success: z.boolean().optional(),
      hash: z.string().optional(),
      network: z.string().optional(),
    })
    .optional(),
});

/** x402_complete's answer as the paid tool's, with the settlement; a failure as the binding's. */
export function asPaidResult(result: ToolResult, paid: PaidCall): ToolResult {
  const completed = Completed.safeParse(result.structuredContent);
  if (!result.isError && completed.success) {
    const { receipt, result: paidResult } = completed.data;
    // The paid tool's fields are what x402_complete marked as its untrusted `result`.
    const untrusted = paidResult ? fieldsWithText(paidResult, Object.keys(paidResult)) : [];
    const answer = {
      ...result,
      ...(paidResult ? { structuredContent: paidResult } : {}),
      _meta: untrusted.length > 0 ? { [UNTRUSTED_META]: untrusted } : {},
    };
    if (receipt?.success === undefined && receipt?.hash === undefined) {
      // The platform ran the call but sent no readable settlement: a SettlementResponse would have
      // to claim a success or a failure nobody saw, so none is made up; the wallet is told so.
      return {
        ...answer,
        content: [{ type: 'text', text: UNCONFIRMED }, ...result.content],
        _meta: { ...answer._meta, [SETTLEMENT_META]: { confirmed: false, network: paid.accepted.network } },
      };
    }
    return {
      ...answer,
      _meta: {
        ...answer._meta,
        [PAYMENT_RESPONSE_META]: {
          success: receipt.success ?? true,
          transaction: receipt.hash ?? '',
          network: receipt.network ? caip2(receipt.network) : paid.accepted.network,
        },
      },
    };
  }
  const reason = result.content.find((item) => item.type === 'text');
  const message = reason && 'text' in reason ? reason.text : 'Payment was not settled';
  const failure = {
    x402Version: X402_VERSION,
    error: message,
    resource: { url: resourceUrl(paid.accepted.extra.tool ?? 'unknown'), mimeType: 'application/json' },
    accepts: [paid.accepted],
    [PAYMENT_RESPONSE_META]: {
      success: false,
      errorReason: 'settlement_failed',
      transaction: '',
      network: paid.accepted.network,
    },
  };
  return {
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          'x402/error': { code: 402, message: 'Payment settlement failed', data: failure },
        }),
      },
      ...result.content,
    ],
    structuredContent: failure,
    isError: true,
  };
}
