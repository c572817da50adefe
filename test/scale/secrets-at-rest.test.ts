/**
 * Nothing secret rests in the store (issue 23, finding 8): after each flow of a 2025 session on
 * three replicas sharing one Redis (an api_keys_write create with forms, an x402 completion by
 * lightning preimage and by exact payment, a teams action, a sign-in whose new key then opens a
 * session), every key of the store is read whole
 * and searched for every secret the flow used: the API key, the management token, the session
 * cookie, the new key's secret, the preimage, the payment payload.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PEOPLE as PEOPLE,
  SANDBOX_TEAMS,
  type Sandbox,
  SANDBOX_MANAGEMENT_TOKENS as TOKENS,
} from '../../src/sandbox/index.js';
import { payQuote } from '../helpers/x402-wallet.js';
import { postJson, shortcutCode } from '../sandbox/oauth-helpers.js';
import { type Cluster, startCluster } from './lib/cluster.js';
import type { RoundRobin } from './lib/proxy.js';

let cluster: Cluster;
let reader: Redis;
let sandbox: Sandbox;
let proxy: RoundRobin;
const clients: Client[] = [];

beforeAll(async () => {
  cluster = await startCluster();
  ({ sandbox, proxy } = cluster);
  reader = new Redis(cluster.redis.url);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  reader?.disconnect();
  await cluster?.close();
});

/** Every key of the store with everything it holds, as text. */
async function storeDump(): Promise<string> {
  const parts: string[] = [];
  for (const key of await reader.keys('*')) {
    const type = await reader.type(key);
    const value =
      type === 'string'
        ? await reader.getBuffer(key).then((b) => b?.toString('latin1'))
        : type === 'hash'
          ? JSON.stringify(await reader.hgetall(key))
          : type === 'list'
            ? JSON.stringify(await reader.lrange(key, 0, -1))
            : type === 'zset'
              ? JSON.stringify(await reader.zrange(key, '0', '-1'))
              : type === 'set'
                ? JSON.stringify(await reader.smembers(key))
                : '';
    parts.push(`${key}\n${value}`);
  }
  return parts.join('\n');
}

async function expectNoSecretAtRest(secrets: Record<string, string>): Promise<void> {
  const dump = await storeDump();
  expect(dump.length).toBeGreaterThan(0);
  for (const [name, secret] of Object.entries(secrets)) {
    expect(secret.length, name).toBeGreaterThan(8);
    expect(dump.includes(secret), `${name} rests in the store`).toBe(false);
    // Also as JSON inside JSON (an event's message is text inside the stored record).
    expect(dump.includes(JSON.stringify(secret).slice(1, -1)), `${name} rests in the store`).toBe(false);
  }
}

async function session(headers: Record<string, string>, toolsets: string, onAsk?: (message: string) => void) {
  const client = new Client({ name: 'secrets', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    onAsk?.(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${proxy.url}?toolsets=${toolsets}`), {
      requestInit: { headers },
    }),
  );
  clients.push(client);
  return async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    // A quote answers isError with the x402 PaymentRequired (the MCP binding); anything else must succeed.
    const quoted = (result.structuredContent as { x402Version?: number } | undefined)?.x402Version === 2;
    expect(result.isError && !quoted, JSON.stringify(result.content)).toBeFalsy();
    return result;
  };
}

const pay = (paymentId: string, scheme: string) => payQuote(sandbox.url, paymentId, scheme);

const credentials = {
  api_key: PEOPLE.demo.apiKey,
  management_token: TOKENS.all,
  session_cookie: PEOPLE.demo.session,
};
const headers = {
  authorization: `Bearer ${PEOPLE.demo.apiKey}`,
  'x-orbit-management-token': TOKENS.all,
  'x-orbit-session': PEOPLE.demo.session,
};

describe('no secret rests in the shared store', () => {
  it('after an api_keys_write create with forms: not the new key’s secret, nor the credentials', async () => {
    const asked: string[] = [];
    const call = await session(headers, 'keys', (message) => asked.push(message));
    await call('api_keys_write', { operation: 'create', name: 'at rest' });
    const secret = /\n\n(\S+)\n\n/.exec(asked[1] ?? '')?.[1];
    expect(secret, asked.join(' | ')).toBeDefined();
    await expectNoSecretAtRest({ ...credentials, new_key_secret: secret! });
  }, 60_000);

  it('after x402 completions: not the preimage, nor the payment payload', async () => {
    const call = await session(headers, 'data,payments', undefined);
    const search = { endpoint: 'web.search', input: { query: 'at rest', maxResults: 1 }, payment: 'x402' };
    const quoteOf = async () =>
      ((await call('data_call', search)).structuredContent as { payment: { quote_id: string } }).payment
        .quote_id;
    const lightning = await quoteOf();
    const { preimage } = await pay(lightning, 'lightning-l402');
    await call('x402_complete', { quote_id: lightning, preimage });
    const exact = await quoteOf();
    const { xPayment } = await pay(exact, 'x402-exact');
    await call('x402_complete', { quote_id: exact, x_payment: xPayment });
    await expectNoSecretAtRest({ ...credentials, preimage: preimage!, payment_payload: xPayment! });
  }, 60_000);

  it('after a sign-in: not the issued key, once the key has opened a session', async () => {
    // The person signs in on the platform (PKCE), and the client brings the issued key to the endpoint.
    const { code, verifier } = await shortcutCode(sandbox);
    const issued = await postJson(sandbox, '/api/v1/auth/keys', { code, code_verifier: verifier });
    expect(issued.status).toBe(200);
    const { key } = (await issued.json()) as { key: string };
    const call = await session({ authorization: `Bearer ${key}` }, 'models,account', undefined);
    await call('models_list', { kind: 'text', limit: 3 });
    await call('usage_get', {});
    // The code and its verifier never pass through orbit-mcp here (the client exchanged them): only the key does.
    await expectNoSecretAtRest({ issued_key: key });
  }, 60_000);

  it('after a teams action: not the session cookie nor the team’s invite link token', async () => {
    const call = await session(headers, 'teams', undefined);
    await call('teams_read', { operation: 'get', team: SANDBOX_TEAMS.main.uuid });
    await call('teams_write', { operation: 'update', team: SANDBOX_TEAMS.main.uuid, name: 'Sandbox Team' });
    await expectNoSecretAtRest({ ...credentials, invite_link_token: SANDBOX_TEAMS.main.inviteLinkToken });
  }, 60_000);
});
