import { z } from 'zod';
import { platformSecretsDir, secretFingerprint, writeSecretFile } from '../../src/auth/secret-file.js';
import type { ToolContext } from '../../src/context.js';
import { HOW_TO_GET } from '../../src/credentials.js';
import { AbortedError, InputError, InternalError, MissingCredentialError } from '../../src/errors.js';
import { registerSecret } from '../../src/log.js';
import { validateReply } from '../../src/upstream/validate.js';
import { CreatedRecord, keysPath, managementCall } from './shared.js';

/**
 * Creating an API key (spec 1 §4.3) so that its secret never enters the model's context: sent with
 * an `Idempotency-Key` (a retry replays the first key, never makes a second), the secret goes to a
 * 0600 file on this machine, or over HTTP, where the caller cannot read the server's files, to the
 * person through a form the client shows them. The result says where, with a short fingerprint.
 */

const Created = z.looseObject({ key: z.string().min(1) });

export interface CreateBody {
  name: string;
  daily_usd_limit?: number | null;
  daily_request_limit?: number | null;
  expires_at?: string | null;
}

export interface Delivery {
  key: CreatedRecord;
  fingerprint: string;
  /** The same create was answered before: the platform replayed that key. */
  replayed: boolean;
  secret_file?: string;
  note?: string;
}

type Ctx = Pick<ToolContext, 'api' | 'confirm' | 'credentials' | 'files' | 'idempotency' | 'log'>;

export async function createKey(ctx: Ctx, body: CreateBody): Promise<Delivery> {
  const token = ctx.credentials.get('management_token');
  if (!token) {
    throw new MissingCredentialError('This needs a management token, and none is configured.', {
      fix: HOW_TO_GET.management_token,
      details: { credential: 'management_token' },
    });
  }
  const remote = ctx.files.trust === 'remote';
  if (remote) await askFirst(ctx, body.name);
  // Over HTTP the secret still has to reach the person after the create, and a call that asks
  // the person may run again from its start: the key is held until the secret was shown.
  // Creates whose outcome is unknown (or held) keep their key, so asking again replays instead of making another.
  const reply = await ctx.idempotency.run(
    token.value,
    body,
    (idempotencyKey) =>
      managementCall(ctx, 'api_keys:write', {
        method: 'POST',
        path: keysPath(),
        body,
        idempotencyKey,
        schema: Created,
      }),
    { hold: remote },
  );
  const { key: secret, ...fields } = reply.data;
  registerSecret(secret);
  const key = validateReply(CreatedRecord, fields, reply.requestId, keysPath(), reply.status);
  // Without an id the key is told by its secret's fingerprint (the file is named by it too).
  const name = key.id ?? secretFingerprint(secret);
  const base = {
    key,
    fingerprint: secretFingerprint(secret),
    replayed: reply.headers['idempotent-replayed'] === 'true',
  };
  // An audit line for the person's own log: which key, never its secret.
  ctx.log.info(`Created API key ${name} (${base.fingerprint})${base.replayed ? ', replayed' : ''}.`);
  if (remote) {
    const shown = await showOnce(ctx, name, secret);
    await ctx.idempotency.release(token.value, body);
    return { ...base, ...shown };
  }
  return { ...base, secret_file: saveSecret(platformSecretsDir(ctx.api.baseUrl), name, secret) };
}

/** Over HTTP, before anything is created: the person must be able to receive the secret. */
async function askFirst(ctx: Ctx, name: string): Promise<void> {
  const answer = await ctx.confirm(
    `Create the API key "${name}"? Its secret will be shown to you once, in the next message, and never to the assistant.`,
  );
  if (answer === 'accepted') return;
  if (answer === 'declined') {
    throw new AbortedError('The person declined; no key was created.', {
      fix: 'Do not try again unless the person asks for it.',
    });
  }
  throw new InputError(
    'Over HTTP this server can hand a new key secret only to the person, through a form, and this client cannot show one; no key was created.',
    {
      param: 'operation',
      fix: 'Create the key in the platform account settings, or with orbit-mcp on your own machine (stdio), which saves the secret to a private file.',
    },
  );
}

async function showOnce(ctx: Ctx, name: string, secret: string): Promise<Pick<Delivery, 'note'>> {
  const answer = await ctx.confirm(
    `The secret of your new API key ${name}:\n\n${secret}\n\nCopy it now: it is shown only this once, and never to the assistant.`,
  );
  return {
    note:
      answer === 'accepted'
        ? 'The secret was shown to the person once.'
        : `The person closed the form without confirming they copied the secret; if it is lost, revoke ${name} and create another.`,
  };
}

function saveSecret(dir: string, id: string, secret: string): string {
  const name = /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : secretFingerprint(secret).replace(':', '-');
  try {
    return writeSecretFile(name, secret, dir);
  } catch (error) {
    throw new InternalError(
      `The key ${id} was created, but its secret could not be saved (${(error as Error).message}).`,
      {
        fix: `Revoke ${id} with api_keys_write operation "revoke", make the config folder writable (or set ORBIT_CONFIG_DIR), then create the key again.`,
      },
    );
  }
}
