import { expect } from 'vitest';

/** The sandbox wallet: pays a quote on one rail, answering what a real wallet would show. */
export async function payQuote(
  sandboxUrl: string,
  paymentId: string,
  scheme: string,
): Promise<Record<string, string>> {
  const res = await fetch(`${sandboxUrl}/__sandbox/x402/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentId, scheme }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, string>;
}
