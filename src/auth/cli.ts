import { createInterface } from 'node:readline';
import type { Config } from '../config.js';
import { ENV_PREFIX } from '../word.js';
import { logout, whoami } from './account-report.js';
import { browserElsewhere, isDesktop, openBrowser } from './desktop.js';
import { type ShortcutFlow, startShortcut } from './shortcut.js';
import { CredentialStore } from './store.js';

/** `orbit-mcp login | logout | whoami`: sign-in and the credential file from a terminal. */

export type AccountCommand = 'login' | 'logout' | 'whoami';

export interface AccountOptions {
  /** `login --management-token` / `login --session`: the value is read from stdin, never from argv. */
  managementToken?: boolean;
  session?: boolean;
  sandbox?: boolean;
  /** `logout --all`: every platform's stored credentials. */
  all?: boolean;
  /** `login --paste`: the browser is on another machine; the address it ends on is pasted back here. */
  paste?: boolean;
  /** How long `login` waits for the browser. */
  waitMs?: number;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

export async function runAccountCommand(
  command: AccountCommand,
  config: Config,
  options: AccountOptions = {},
): Promise<number> {
  if (options.sandbox) {
    say(
      'The in-process sandbox needs no sign-in. To try sign-in, run `orbit-mcp sandbox` and pass its URL with --base-url.',
    );
    return 2;
  }
  const store = new CredentialStore(undefined, (message) => say(`warning: ${message}`));
  const platform = config.baseUrl;
  if (command === 'whoami') return whoami(config, store);
  if (command === 'logout') return logout(config, store, options.all === true);
  if (!platform) {
    say(`No platform configured: set ${ENV_PREFIX}BASE_URL or pass --base-url.`);
    return 2;
  }
  if (options.managementToken || options.session) {
    const kind = options.managementToken ? 'management_token' : 'session';
    const value = await readSecret(`Paste the ${kind.replace('_', ' ')} and press Enter: `);
    if (!value) {
      say(`No ${kind.replace('_', ' ')} was given on stdin; nothing stored.`);
      return 2;
    }
    store.set(platform, kind, { value, obtained_at: new Date().toISOString(), via: 'cli' });
    say(`Stored the ${kind.replace('_', ' ')} for ${platform} in ${store.path}.`);
    return 0;
  }
  const paste = options.paste || browserElsewhere();
  return login(platform, store, config, { waitMs: options.waitMs ?? 300_000, paste });
}

async function login(
  platform: string,
  store: CredentialStore,
  config: Config,
  { waitMs, paste }: { waitMs: number; paste: boolean },
): Promise<number> {
  const flow = await startShortcut({ baseUrl: platform, clientName: 'orbit-mcp', ttlMs: waitMs });
  const opened = isDesktop() && (await openBrowser(flow.url));
  say(
    opened
      ? 'Opened the sign-in page in your browser. If it did not appear, open this link:'
      : 'Open this link in a browser to sign in:',
  );
  say(`  ${flow.url}`);
  if (paste) {
    say(
      `After you approve, the browser goes to ${flow.redirectUri}?code=... on this machine. If that page does not load (the browser is on another machine), copy its whole address from the address bar, paste it here and press Enter (only the code will do too).`,
    );
  }
  say(`Waiting for approval (up to ${Math.round(waitMs / 60_000)} min; Ctrl-C cancels)...`);
  const cancel = () => flow.cancel();
  process.once('SIGINT', cancel);
  // The loopback listener does not hold the process open by itself; this timer does, until the flow settles.
  const keepAlive = setInterval(() => {}, 1_000);
  const stopReading = paste ? readPastedAddresses(flow) : () => {};
  const result = await flow.result.finally(() => {
    clearInterval(keepAlive);
    stopReading();
    process.off('SIGINT', cancel);
  });
  if (!result.ok) {
    say(
      result.error === 'access_denied'
        ? 'Sign-in was denied in the browser; nothing was stored. Run `orbit-mcp login` to try again.'
        : `Sign-in failed (${result.error}): ${result.description} Run \`orbit-mcp login\` to try again.`,
    );
    return 1;
  }
  store.set(platform, 'api_key', {
    value: result.key,
    obtained_at: new Date().toISOString(),
    scope: result.scope,
    user_id: result.userId,
    via: 'sign-in',
  });
  say(`Signed in to ${platform}. The key is stored in ${store.path} (readable only by you).`);
  if (config.apiKey)
    say(`Note: ${ENV_PREFIX}API_KEY is set in the environment and takes precedence over the stored key.`);
  return 0;
}

/**
 * Hands each line typed or pasted on stdin to the flow, saying why one is refused (another
 * attempt's address, not an address at all) and waiting for the next; the loopback listens all
 * the while. Returns what stops reading.
 */
function readPastedAddresses(flow: ShortcutFlow): () => void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    void flow.complete(line).then((answer) => {
      if (!answer.accepted) say(`Not accepted: ${answer.reason}`);
    });
  });
  return () => {
    lines.close();
    process.stdin.destroy();
  };
}

/** Reads one line from stdin; on a terminal it is not echoed. */
async function readSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += String(chunk);
    return text.split(/\r?\n/)[0]?.trim() ?? '';
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let value = '';
    const finish = (result: string) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish(value.trim());
        if (ch === '\u0003') return finish('');
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
  });
}
