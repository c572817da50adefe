import { parseBoolean } from '../config.js';
import { ENV_PREFIX } from '../word.js';

export const NO_BROWSER_ENV = `${ENV_PREFIX}NO_BROWSER`;

/**
 * Whether a browser can be opened for the person at this machine: not in CI, not when switched
 * off, and on Linux only with a display (an SSH session or a container has none).
 */
export function isDesktop(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  // Set to anything but an off word (0/false/no/off), each switches the browser off.
  if (isOn(env.CI) || isOn(env[NO_BROWSER_ENV])) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
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
