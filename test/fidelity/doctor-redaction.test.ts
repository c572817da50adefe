/**
 * Issue 34 item 2: `orbit-mcp doctor` prints nothing it was given to read with. A platform that
 * echoes what the caller sent (its key as a model id, inside a field name, in an error reason, its
 * management token and session in reasons) is a plain node:http server here, so the echo is the
 * platform's and not the sandbox's guess; the output (text and JSON) is checked for every
 * credential, with and without a known key prefix.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credential, StaticCredentials } from '../../src/credentials.js';
import { doctorCommand } from '../../src/doctor/command.js';
import { HttpClient } from '../../src/upstream/client.js';
import { FREE_ROUTES } from '../../tools/doctor-routes.js';

/** The credential the caller sent: bearer, x-api-key or the session cookie's value. */
function sentBy(req: IncomingMessage): string {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const cookie = /=(.+)$/.exec(req.headers.cookie ?? '')?.[1];
  return bearer ?? (req.headers['x-api-key'] as string | undefined) ?? cookie ?? 'nobody';
}

const json = (status: number, body: unknown) => ({ status, body });

/** Each route's reply, echoing what it was sent. */
function reply(path: string, sent: string): { status: number; body: unknown } {
  if (path === '/api/v1/models')
    return json(200, {
      object: 'list',
      // The key as a model id (left out for its bad context_length, and a route doctor would follow).
      data: [{ id: sent, context_length: { tokens: 'many' } }, { id: 'echo/model' }],
    });
  if (path.endsWith('-models') || path.endsWith('/models'))
    return json(200, { data: [{ id: 'echo/model', [`alias for ${sent}`]: true }] });
  if (path === '/api/v1/data/endpoints')
    // The key inside a field name the tools read with a schema.
    return json(200, {
      data: [{ id: 'people', category: 'c', methods: ['GET'], endpoint: '/p' }],
      [sent]: 1,
    });
  if (path === '/api/subscription/v1/usage')
    // A value the tools tolerate away, so doctor prints it as drift.
    return json(200, { active: sent, daily: { [sent]: 'used' } });
  if (path === '/api/v1/x402/endpoints') return json(401, { error: { message: `Invalid API key ${sent}` } });
  return json(403, { error: { message: `Credential ${sent} may not read ${path}` } });
}

async function startEcho(): Promise<{ url: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://echo.invalid');
    const { status, body } = reply(url.pathname, sentBy(req));
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

let echo: Awaited<ReturnType<typeof startEcho>>;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(() => new Promise<void>((resolve) => echo.server.close(() => resolve())));

async function doctorPrints(credentials: Credential[], json: boolean): Promise<string> {
  let printed = '';
  const { outcomes } = await doctorCommand(
    {
      target: { kind: 'platform', baseUrl: echo.url },
      client: new HttpClient({
        baseUrl: echo.url,
        timeoutMs: 5_000,
        retry: { maxRetries: 0 },
        userAgent: 'echo',
      }),
      credentials: new StaticCredentials(credentials),
    },
    FREE_ROUTES,
    {
      json,
      write: (text) => {
        printed += text;
      },
    },
  );
  // What the command returns to a caller is the redacted form too.
  return printed + JSON.stringify(outcomes);
}

describe.each([
  [
    'with a known prefix',
    'sk-orbit-echo0123456789abcdefXYZ',
    'mt-echo-management-0123456789',
    'sess_0123456789abcdefghij',
  ],
  [
    'without a known prefix',
    'plainkey7f3a9c2e1b4d8f6a0c5e',
    'plaintoken4e8b2d6f0a1c3e5g7h',
    'plainsession9a8b7c6d5e4f3g',
  ],
])('doctor against a platform that echoes the caller, %s', (_name, key, token, session) => {
  const credentials: Credential[] = [
    { kind: 'api_key', value: key, source: 'env' },
    { kind: 'management_token', value: token, source: 'env' },
    { kind: 'session', value: session, source: 'env' },
  ];

  it.each([
    ['text', false],
    ['JSON', true],
  ])('prints no credential in its %s output', async (_format, asJson) => {
    const printed = await doctorPrints(credentials, asJson);
    // The echoes did reach the report, as [redacted]: a model id, a field name, reasons.
    expect(printed).toContain('[redacted]');
    expect(printed).toMatch(/data\[\[redacted\]\]/);
    expect(printed).toMatch(/model details \(\[redacted\]\)/);
    expect(printed).toMatch(/Invalid API key \[redacted\]/);
    for (const secret of [key, token, session]) {
      expect(printed).not.toContain(secret);
      // Nor a recognisable part of one (a value cut short for the report).
      expect(printed).not.toContain(secret.slice(0, 16));
    }
  });

  it('never requests a route whose path would carry the key', async () => {
    echo.requests.length = 0;
    await doctorPrints(credentials, true);
    expect(echo.requests.length).toBeGreaterThan(5);
    for (const url of echo.requests) expect(url).not.toContain(key);
  });
});
