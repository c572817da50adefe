/**
 * A real headless Chromium (Debian's package) driven by playwright-core, playing the person at
 * the sandbox's consent page.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';
import catalog from '../../tools/catalog.json' with { type: 'json' };
import { recordSkippedFile } from '../helpers/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser tests skip on a machine without Chromium, but never in CI, where a missing browser must fail. */
const skipBrowserTests = !existsSync(CHROMIUM) && !process.env.CI;

const SKIP_REASON =
  `no Chromium at ${CHROMIUM}. To run them, install Chromium (Debian/Ubuntu: sudo apt-get install ` +
  'chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary. With CI=true a missing browser fails the run instead.';

/**
 * A suite that needs the browser. Where it is skipped, the skip is said in the file's output and
 * noted for the end-of-run summary, which also excuses the tools only such a file would have called
 * (test/setup/tool-coverage.ts): a skip the README announces never turns the run red.
 */
export function describeWithBrowser(fileUrl: string, title: string, body: () => void): void {
  if (skipBrowserTests) {
    console.warn(`Browser tests skipped: ${SKIP_REASON}`);
    // The tools this suite would have called: catalog names quoted in its own source.
    const source = body.toString();
    const tools = catalog
      .map((tool) => tool.name)
      .filter((name) => new RegExp(`['"\`]${name}['"\`]`).test(source));
    recordSkippedFile({ file: fileURLToPath(fileUrl), suite: title, reason: SKIP_REASON, tools });
  }
  describe.skipIf(skipBrowserTests)(title, body);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A fresh temporary profile (user-data-dir) is made for each launch.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export interface ConsentSeen {
  appName: string;
  redirectHost: string;
  account: string;
  balance: string;
  scopes: string;
  warning: string;
  /** Heading of the page the browser ended on after the redirect (the app's callback page). */
  finalHeading: string;
  finalUrl: string;
}

/** Opens the sign-in link, reads the consent screen, presses Approve (with an optional cap) or Deny. */
export async function answerInBrowser(
  browser: Browser,
  url: string,
  decision: 'approve' | 'deny',
  cap?: { usd: string; period: 'daily' | 'weekly' | 'monthly' },
): Promise<ConsentSeen> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const text = async (selector: string) => (await page.textContent(selector))?.trim() ?? '';
    const seen = {
      appName: await text('#app-name'),
      redirectHost: await text('#redirect-host'),
      account: await text('#account'),
      balance: await text('#balance'),
      scopes: await text('#scopes'),
      warning: await text('#spend-warning'),
    };
    if (cap) {
      await page.fill('input[name="spend_cap"]', cap.usd);
      await page.selectOption('select[name="spend_cap_period"]', cap.period);
    }
    // The platform redirects to the app's callback, which is on another origin.
    const platform = new URL(url).origin;
    await Promise.all([
      page.waitForURL((u) => u.origin !== platform),
      page.click(`button[value="${decision}"]`),
    ]);
    await page.waitForLoadState('load');
    return { ...seen, finalHeading: await text('h1'), finalUrl: page.url() };
  } finally {
    await context.close();
  }
}

/**
 * The person's browser on another machine: it opens the sign-in link and presses Approve (or Deny),
 * and the platform's redirect to the loopback callback cannot reach this machine: every loopback
 * address but the platform's own goes through a proxy that does not answer. Returns the address
 * the browser was sent to, as the person reads it from the address bar.
 */
export async function approveElsewhere(
  browser: Browser,
  url: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<string> {
  const context = await browser.newContext({
    proxy: { server: `http://127.0.0.1:${await deadPort()}`, bypass: `<-loopback>,${new URL(url).host}` },
  });
  try {
    const page = await context.newPage();
    await page.goto(url);
    const [failed] = await Promise.all([
      page.waitForEvent('requestfailed', (request) => new URL(request.url()).pathname === '/callback'),
      page.click(`button[value="${decision}"]`),
    ]);
    return failed.url();
  } finally {
    await context.close();
  }
}

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
