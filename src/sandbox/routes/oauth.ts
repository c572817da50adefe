import type { Hono } from 'hono';
import { answerConsent, shortcutAuthorize, standardAuthorize } from '../oauth/authorize.js';
import { downstreamCode, exchangeShortcut, exchangeToken, registerClient } from '../oauth/endpoints.js';
import { authGuide, authorizationServerMetadata, protectedResourceMetadata } from '../oauth/guide.js';
import { oauthJson } from '../oauth/http.js';
import type { SandboxContext, SandboxEnv } from '../types.js';

/** OAuth key issuance (spec 1 §4.2): discovery, consent pages, both flows, the downstream key code. */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const base = (url: string) => new URL(url).origin;
  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json(authorizationServerMetadata(base(c.req.url))),
  );
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(protectedResourceMetadata(base(c.req.url))));
  app.get('/auth.md', (c) =>
    c.body(authGuide(base(c.req.url)), 200, { 'Content-Type': 'text/markdown; charset=utf-8' }),
  );

  app.get('/auth', (c) => shortcutAuthorize(c, ctx));
  app.get('/oauth/authorize', (c) => standardAuthorize(c, ctx));
  app.post('/oauth/consent', (c) => answerConsent(c, ctx));

  app.post(
    '/api/v1/auth/keys',
    oauthJson((c) => exchangeShortcut(c, ctx)),
  );
  app.post(
    '/api/v1/auth/keys/code',
    oauthJson((c) => downstreamCode(c, ctx)),
  );
  app.post(
    '/oauth/register',
    oauthJson((c) => registerClient(c, ctx)),
  );
  app.post(
    '/oauth/token',
    oauthJson((c) => exchangeToken(c, ctx)),
  );
}
