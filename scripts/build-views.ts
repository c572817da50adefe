/**
 * The MCP Apps views: each `views/<name>.ts` bundled (ext-apps' App bridge and whatever else it
 * imports) and inlined with the shared stylesheet into one self-contained `dist/views/<name>.html`:
 * a host renders it in a sandboxed iframe with no network, so nothing may be fetched.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { VIEWS } from '../src/mcp/apps.js';

export async function buildViews(outdir: string): Promise<{ name: string; bytes: number }[]> {
  await mkdir(outdir, { recursive: true });
  const css = await readFile('views/shared/style.css', 'utf8');
  const built = [];
  for (const name of VIEWS) {
    const bundle = await rolldown({
      input: resolve(`views/${name}.ts`),
      platform: 'browser',
      logLevel: 'warn',
    });
    try {
      const { output } = await bundle.generate({ format: 'iife', minify: true });
      const script = output[0].code.replaceAll('</script', '<\\/script');
      const html = page(name, css, script);
      await writeFile(join(outdir, `${name}.html`), html);
      built.push({ name, bytes: Buffer.byteLength(html) });
    } finally {
      await bundle.close();
    }
  }
  return built;
}

const page = (name: string, css: string, script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${name}</title><style>${css.replace(/\s*\n\s*/g, '')}</style></head><body><main id="view" aria-live="polite"><p class="muted">Waiting for the result…</p></main><script>${script}</script></body></html>\n`;
