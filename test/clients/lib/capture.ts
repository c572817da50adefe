/**
 * Collects what a framework warns about: console.warn/error, process warnings, and `debug`-style
 * lines on stderr that say WARN. Frameworks report a schema they could not convert this way (the
 * OpenAI Agents SDK falls back to non-strict with a console.warn; LangChain's adapters log through
 * `debug`), so "converted without warnings" means this stays empty while tools are listed.
 */
import { format } from 'node:util';

const lines: string[] = [];

export function installCapture(): void {
  const keep = (...args: unknown[]) => lines.push(format(...args));
  console.warn = keep;
  console.error = keep;
  process.on('warning', (warning) => lines.push(`${warning.name}: ${warning.message}`));
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (const line of text.split('\n')) if (/\bwarn/i.test(line)) lines.push(line.trim());
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}

/** Runs `fn` and returns what was warned meanwhile. */
export async function warningsDuring<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const from = lines.length;
  const value = await fn();
  return { value, warnings: lines.slice(from) };
}
