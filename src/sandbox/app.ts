import { Hono } from 'hono';
import type { Envelope } from './errors.js';
import { SandboxError } from './errors.js';
import * as mediaFiles from './media/files.js';
import { faultInjector, recorder, requestIds } from './middleware.js';
import { errorReply } from './reply.js';
import * as accounts from './routes/accounts.js';
import * as batches from './routes/batches.js';
import * as chat from './routes/chat.js';
import * as completions from './routes/completions.js';
import * as control from './routes/control.js';
import * as data from './routes/data.js';
import * as dataDirect from './routes/data-direct.js';
import * as embeddings from './routes/embeddings.js';
import * as evals from './routes/evals.js';
import * as imageCatalog from './routes/image-catalog.js';
import * as images from './routes/images.js';
import * as management from './routes/management.js';
import * as messages from './routes/messages.js';
import * as models from './routes/models.js';
import * as oauth from './routes/oauth.js';
import * as providers from './routes/providers.js';
import * as responses from './routes/responses.js';
import * as speech from './routes/speech.js';
import * as talk from './routes/talk.js';
import * as teamInvitations from './routes/team-invitations.js';
import * as teamInviteLink from './routes/team-invite-link.js';
import * as teamMembers from './routes/team-members.js';
import * as teams from './routes/teams.js';
import * as tee from './routes/tee.js';
import * as teeControl from './routes/tee-control.js';
import * as transcribe from './routes/transcribe.js';
import * as transcriptions from './routes/transcriptions.js';
import * as usage from './routes/usage.js';
import * as userSettings from './routes/user-settings.js';
import * as video from './routes/video.js';
import * as web from './routes/web.js';
import * as x402 from './routes/x402.js';
import { enclaveCapture, SIGNED_ROUTES } from './tee/capture.js';
import type { SandboxContext, SandboxEnv } from './types.js';

/** Route modules, one per area; a new area is one file and one line here. */
const AREAS: { register(app: Hono<SandboxEnv>, ctx: SandboxContext): void }[] = [
  control,
  models,
  imageCatalog,
  providers,
  chat,
  messages,
  responses,
  completions,
  talk,
  web,
  oauth,
  images,
  video,
  speech,
  transcribe,
  evals,
  transcriptions,
  mediaFiles,
  data,
  dataDirect,
  x402,
  embeddings,
  tee,
  teeControl,
  accounts,
  management,
  usage,
  batches,
  // Routes with literal segments (invitations/{token}, invite-link/{token}) before /api/teams/{team}/...
  teamInvitations,
  teamInviteLink,
  teams,
  teamMembers,
  userSettings,
];

/** Envelope registry: the longest registered prefix of a path decides its error envelope. */
export function createEnvelopes(): Pick<SandboxContext, 'setEnvelope' | 'envelopeFor'> {
  const prefixes = new Map<string, Envelope>();
  return {
    setEnvelope: (prefix, envelope) => {
      prefixes.set(prefix, envelope);
    },
    envelopeFor: (path) => {
      let best: [string, Envelope] | undefined;
      for (const entry of prefixes) {
        if (path.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
      }
      return best?.[1] ?? 'common';
    },
  };
}

export function buildApp(ctx: SandboxContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.use('*', requestIds());
  app.use('*', recorder(ctx));
  app.use('*', faultInjector(ctx));
  // Before the routes: an enclave model's request and reply bytes are kept and signed.
  for (const path of SIGNED_ROUTES) app.use(path, enclaveCapture(ctx));
  for (const area of AREAS) area.register(app, ctx);

  app.notFound((c) =>
    errorReply(
      c,
      ctx,
      new SandboxError(404, `No sandbox route for ${c.req.method} ${c.req.path}.`, { code: 'not_found' }),
    ),
  );
  app.onError((error, c) => {
    if (error instanceof SandboxError) return errorReply(c, ctx, error);
    ctx.log(`internal error on ${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`);
    return errorReply(
      c,
      ctx,
      new SandboxError(500, `Sandbox internal error: ${error.message}`, { code: 'server_error' }),
    );
  });
  return app;
}
