import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../../src/mcp/render.js';
import { asPaidResult, type PaidCall } from '../../../src/mcp/x402-binding.js';

const paid: PaidCall = {
  tool: 'x402_complete',
  arguments: { quote_id: 'q_1', x_payment: 'e30=' },
  accepted: { scheme: 'exact', network: 'eip155:8453', extra: { quote_id: 'q_1', tool: 'data_call' } },
};

/** x402_complete's answer to a paid replay, with the receipt read from X-PAYMENT-RESPONSE (if any). */
const completed = (receipt?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: 'Paid. 3 results.' }],
  structuredContent: {
    status: 'completed',
    tool: 'data_call',
    result: { endpoint: 'web.search', data: { results: [] } },
    ...(receipt ? { receipt } : {}),
  },
});

describe('asPaidResult', () => {
  it('relays the settlement the platform confirmed', () => {
    const answer = asPaidResult(completed({ success: true, hash: '0xabc', network: 'base' }), paid);
    expect(answer._meta).toEqual({
      'x402/payment-response': { success: true, transaction: '0xabc', network: 'eip155:8453' },
      // What the paid tool fetched stays marked as from the web (the data endpoint's reply).
      'orbit/untrusted': ['endpoint', 'data'],
    });
    expect(answer.structuredContent).toEqual({ endpoint: 'web.search', data: { results: [] } });
  });

  it('claims no success when the reply carried no readable X-PAYMENT-RESPONSE', () => {
    for (const receipt of [undefined, { network: 'base' }]) {
      const answer = asPaidResult(completed(receipt), paid);
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toEqual({ endpoint: 'web.search', data: { results: [] } });
      expect(answer._meta).toEqual({
        'orbit/settlement': { confirmed: false, network: 'eip155:8453' },
        'orbit/untrusted': ['endpoint', 'data'],
      });
      expect(answer.content[0]).toEqual({
        type: 'text',
        text: expect.stringMatching(/^Settlement not confirmed: .*no readable X-PAYMENT-RESPONSE/),
      });
      expect(answer.content.slice(1)).toEqual(completed().content);
    }
  });
});
