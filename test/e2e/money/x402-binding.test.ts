/**
 * The x402 MCP binding end to end (coinbase/x402 specs/transports-v2/mcp.md): a client written
 * here from the spec, with the sandbox's wallet signing, pays a data_call quote through
 * `_meta["x402/payment"]` and gets the result with `_meta["x402/payment-response"]`. Over stdio
 * (no key) and HTTP (a key, asking to pay per call), with 2026-07-28 and 2025 clients; the built
 * server against a separate sandbox that records every request.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, stopProcess } from '../../../scripts/lib/http-server.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { walletSignature } from '../../../src/sandbox/x402/rails.js';

const BIN = resolve(process.env.ORBIT_TEST_BIN ?? 'dist/orbit-mcp.js');
const SEARCH = { endpoint: 'web.search', input: { query: 'orbital debris', maxResults: 3 } };
const DATA_PATH = '/api/v1/data/web/search';

type Result = Awaited<ReturnType<Client['callTool']>>;
interface Requirement {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { quote_id: string; rail: string };
}
interface PaymentRequired {
  x402Version: number;
  resource: { url: string };
  accepts: Requirement[];
}

/** The spec's client: PaymentRequired from structuredContent, then the x402/error wrapper, then content[0]. */
function paymentRequiredOf(result: Result): PaymentRequired | undefined {
  if (!result.isError) return undefined;
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (structured && typeof structured.x402Version === 'number')
    return structured as unknown as PaymentRequired;
  const wrapped = (structured?.['x402/error'] as { data?: PaymentRequired } | undefined)?.data;
  if (wrapped) return wrapped;
  const first = result.content[0];
  if (first?.type !== 'text') return undefined;
  const parsed = JSON.parse(first.text) as PaymentRequired & { 'x402/error'?: { data: PaymentRequired } };
  return parsed['x402/error']?.data ?? (typeof parsed.x402Version === 'number' ? parsed : undefined);
}

/** A wallet on Base: signs the requirement it is given (the sandbox's wallet rules stand in for EIP-3009). */
function sign(requirement: Requirement) {
  const { quote_id, rail } = requirement.extra;
  return {
    rail,
    amount: requirement.amount,
    payTo: requirement.payTo,
    signature: walletSignature(quote_id, rail as 'x402-exact', requirement.amount, requirement.payTo),
  };
}

/** Calls, and when the answer asks for payment, pays on Base and calls again (steps 1 to 6 of the spec). */
async function payingCall(client: Client, args: Record<string, unknown>) {
  const first = (await client.callTool({ name: 'data_call', arguments: args })) as Result;
  const required = paymentRequiredOf(first);
  expect(required, JSON.stringify(first.content)).toBeDefined();
  expect(required!.resource.url).toBe('mcp://tool/data_call');
  const accepted = required!.accepts.find((entry) => entry.network === 'eip155:8453');
  expect(accepted).toMatchObject({ scheme: 'exact', asset: expect.stringMatching(/^0x/), amount: '6000' });
  const payment = { x402Version: 2, resource: required!.resource, accepted, payload: sign(accepted!) };
  const paid = (await client.callTool({
    name: 'data_call',
    arguments: args,
    _meta: { 'x402/payment': payment },
  })) as Result;
  return { first, payment, paid };
}

let sandbox: Sandbox;
let key: string;
let configDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ quiet: true });
  key = sandbox.state.createKey({ label: 'x402 binding', balance: 5 });
  configDir = await mkdtemp(join(tmpdir(), 'orbit-x402-binding-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(configDir, { recursive: true, force: true });
});

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const ERAS = ['modern', 'legacy'] as const;

/** The built server over stdio without a key, its quotes in a config folder of its own. */
async function overStdio(era: (typeof ERAS)[number], folder: string) {
  const client = new Client({ name: 'x402-wallet', version: '1' }, era === 'modern' ? MODERN : {});
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--base-url', sandbox.url, '--log-level', 'error'],
      env: { PATH: process.env.PATH ?? '', ORBIT_CONFIG_DIR: join(configDir, folder) },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function expectPaidJourney(client: Client, args: Record<string, unknown>) {
  sandbox.clearRequests();
  const { first, payment, paid } = await payingCall(client, args);
  // Orbit's own fields stay beside the PaymentRequired: the other rails and x402_complete still work.
  const quote = (first.structuredContent as { payment: { quote_id: string; rails: unknown[] } }).payment;
  expect(quote.quote_id).toBe(payment.accepted!.extra.quote_id);
  expect(quote.rails.length).toBeGreaterThan(3);

  expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
  expect(paid.structuredContent).toMatchObject({ endpoint: 'web.search' });
  expect(paid._meta?.['x402/payment-response']).toEqual({
    success: true,
    transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    network: 'eip155:8453',
  });
  // One replay, of the quoted bytes, with the payment as X-PAYMENT in the platform's words.
  const calls = sandbox.requests.filter((request) => request.path === DATA_PATH);
  expect(calls).toHaveLength(2);
  expect(calls[1]!.body).toBe(calls[0]!.body);
  const sent = JSON.parse(Buffer.from(calls[1]!.headers['x-payment']!, 'base64').toString('utf8'));
  expect(sent).toMatchObject({ paymentId: quote.quote_id, network: 'base', payload: payment.payload });
  expect(calls[1]!.headers.authorization).toBeUndefined();

  // The same payment again: the quote paid once, so nothing more is sent and the binding says so.
  const again = (await client.callTool({
    name: 'data_call',
    arguments: args,
    _meta: { 'x402/payment': payment },
  })) as Result;
  expect(again.isError).toBe(true);
  expect(again.structuredContent).toMatchObject({
    x402Version: 2,
    'x402/payment-response': { success: false },
  });
  expect(sandbox.requests.filter((r) => r.path === DATA_PATH && r.headers['x-payment'])).toHaveLength(1);
}

describe('an x402 wallet client pays through the MCP binding', () => {
  for (const era of ERAS) {
    it(`over stdio without a key (${era === 'modern' ? '2026-07-28' : '2025'})`, async () => {
      const client = await overStdio(era, era);
      try {
        expect(client.getProtocolEra()).toBe(era);
        await expectPaidJourney(client, SEARCH);
      } finally {
        await client.close();
      }
    });
  }

  describe('over HTTP with a key, asking to pay per call', () => {
    let server: { url: string; child: ChildProcess };
    beforeAll(async () => {
      server = await startHttpServer([
        BIN,
        '--http',
        '--port',
        '0',
        '--base-url',
        sandbox.url,
        '--log-level',
        'error',
      ]);
    });
    afterAll(async () => {
      if (server) await stopProcess(server.child);
    });
    for (const era of ERAS) {
      it(`serves a ${era === 'modern' ? '2026-07-28' : '2025'} client`, async () => {
        const client = new Client({ name: 'x402-wallet', version: '1' }, era === 'modern' ? MODERN : {});
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), {
            requestInit: { headers: { authorization: `Bearer ${key}` } },
          }),
        );
        try {
          expect(client.getProtocolEra()).toBe(era);
          await expectPaidJourney(client, { ...SEARCH, payment: 'x402' });
        } finally {
          await client.close();
        }
      });
    }
  });

  it('refuses a payment that is not an x402 PaymentPayload, sending nothing', async () => {
    const client = await overStdio('legacy', 'bad');
    try {
      sandbox.clearRequests();
      const result = (await client.callTool({
        name: 'data_call',
        arguments: SEARCH,
        _meta: { 'x402/payment': { x402Version: 2, payload: {} } },
      })) as Result;
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('is not an x402 PaymentPayload');
      expect(sandbox.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
