import { parseBoolean } from '../config.js';
import { ENV_PREFIX } from '../word.js';

const NO_BROWSER_ENV = `${ENV_PREFIX}NO_BROWSER`;
/** On: the browser is on another machine, so sign-in ends by pasting its address back; off: it is here. */
const SIGN_IN_PASTE_ENV = `${ENV_PREFIX}SIGN_IN_PASTE`;

/**
 * Whether a browser can be opened for the person at this machine: not in CI, not when switched
 * off, and only where this machine shows one to the person (see browserHere).
 */
export function isDesktop(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  // Set to anything but an off word (0/false/no/off), each switches the browser off.
  if (isOn(env.CI) || isOn(env[NO_BROWSER_ENV])) return false;
  return browserHere(env, platform);
}

/**
 * Whether the person's browser is probably on another machine, so the platform's redirect to the
 * loopback callback here cannot reach it and the person pastes the address back: this machine
 * shows no browser (an SSH session without X forwarding, a container, Linux without a display),
 * or the person says so (ORBIT_SIGN_IN_PASTE=1; =0 says the browser is here after all).
 */
export function browserElsewhere(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const said = env[SIGN_IN_PASTE_ENV]?.trim() ? parseBoolean(env[SIGN_IN_PASTE_ENV]) : undefined;
  return said ?? !browserHere(env, platform);
}

/**
 * A browser started here is seen by the person: macOS and Windows unless reached over SSH, Linux
 * with a display (which an SSH session has only with X forwarding, whose browser then runs here).
 */
function browserHere(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform === 'darwin' || platform === 'win32')
    return !(env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY);
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Opens the link in the default browser; false when it could not. Never called without a request to sign in. */
export async function openBrowser(url: string): Promise<boolean> {
  try {
    const { default: open } = await import('open');
    const child = await open(url);
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** A switch that is set to anything but an off word; unset or empty is off. */
function isOn(value: string | undefined): boolean {
  return Boolean(value) && parseBoolean(value) !== false;
}
