import type { z } from 'zod';
import { InternalError, isOrbitError, type OrbitError, OutputInvalidError } from '../errors.js';
import { type MediaContent, mediaContent } from '../files/content.js';
import type { Files } from '../files/files.js';
import { type NextCall, sayNext } from '../next-call.js';
import type { Redactor } from '../secrets.js';
import { cleanFields, fence, UNTRUSTED_META } from '../untrusted.js';
import type { AnyTool } from './define-tool.js';

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: 'text'; text: string } | MediaContent)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A successful result: structuredContent plus a compact text form, and the caller's saved files as
 * inline media and links. Secrets are redacted from every text and field (a platform may echo one);
 * fields the tool declares `untrusted` are cleaned, and then the text is fenced as from the web.
 */
export async function renderResult(
  tool: AnyTool,
  output: Record<string, unknown>,
  files: Files,
  redactor: Redactor,
  /** What the spend budget adds: lines after the text, fields beside the result's own. */
  notes: { lines: string[]; fields?: Record<string, unknown> } = { lines: [] },
): Promise<ToolResult> {
  const declared = typeof tool.untrusted === 'function' ? tool.untrusted(output) : (tool.untrusted ?? []);
  const { output: shown, marked } = cleanFields(output, declared);
  const own = tool.text ? tool.text(shown) : JSON.stringify(shown);
  // The budget's lines are this server's own words: outside the fence of untrusted text.
  const text = [marked.length > 0 ? fence(own) : own, ...notes.lines].join('\n');
  const extra = tool.content?.(shown) ?? [];
  const saved = extra.flatMap((item) => (item.type === 'media' ? [item.uri] : []));
  const direct = extra.filter((item): item is MediaContent => item.type !== 'media');
  const links = direct.map((item) => (item.type === 'resource_link' ? redactor.value(item) : item));
  return {
    content: [
      { type: 'text', text: redactor.text(text) },
      ...links,
      ...(saved.length > 0 ? await mediaContent(saved, files) : []),
    ],
    structuredContent: redactor.value(notes.fields ? { ...shown, ...notes.fields } : shown),
    ...(marked.length > 0 ? { _meta: { [UNTRUSTED_META]: marked } } : {}),
  };
}

/**
 * The one place that turns any failure into an `isError` result a model can act on: what went
 * wrong, how to fix it, and the request id for support. Unknown errors are not echoed verbatim
 * beyond their message, and stack traces never reach the client.
 */
export function renderError(error: unknown, redactor: Redactor): ToolResult {
  const e = asOrbitError(error);
  const lines = [`Error (${e.code}${e.status ? `, HTTP ${e.status}` : ''}): ${e.message}`];
  if (e.upstreamCode)
    lines.push(`Platform code: ${e.upstreamCode}${e.param ? ` (parameter ${e.param})` : ''}`);
  if (e.fix) lines.push(`Fix: ${e.fix}`);
  if (e.next) lines.push(`Next: call ${sayNext(e.next)}.`);
  if (e.retryAfterMs !== undefined) lines.push(`Retry after: ${Math.ceil(e.retryAfterMs / 1000)} s`);
  if (e.requestId) lines.push(`Request id: ${e.requestId}`);
  for (const [key, value] of Object.entries(e.details ?? {})) {
    if (value !== undefined && typeof value !== 'object') lines.push(`${key}: ${String(value)}`);
  }
  return { content: [{ type: 'text', text: redactor.text(lines.join('\n')) }], isError: true };
}

/**
 * Anything not already an OrbitError is unexpected here (arguments were checked before the tool
 * ran, replies are validated at the boundary): reported by its message, never as the caller's fault.
 */
function asOrbitError(error: unknown): OrbitError {
  if (isOrbitError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new InternalError(message, {
    fix: 'This is unexpected; call again, and report it if it persists.',
  });
}

/**
 * A tool's result that does not match its own output schema: our bug, said plainly. After a paid
 * call (`paid`) the call ran and may have been charged, so the fix names the read that shows what
 * it did (the tool's `check`, also as `next`) instead of calling again.
 */
export function outputErrorFrom(
  error: z.ZodError,
  tool: string,
  paid?: { check: NextCall | undefined },
): OutputInvalidError {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(result)';
  const bug = 'This is a bug in orbit-mcp, not in your arguments';
  return new OutputInvalidError(
    `${tool} produced a result that does not match its declared output at \`${field}\`: ${issue?.message ?? 'invalid'}.`,
    {
      fix: paid
        ? checkLine(tool, paid.check, `${bug} (report it), and ${tool} ran, so it may have been charged`)
        : `${bug}; call again, and report it if it repeats.`,
      details: { field },
      ...(paid?.check ? { next: paid.check } : {}),
    },
  );
}

/** `<what happened>: call <the read> to see what it did, and do not call <tool> again for this.` */
export function checkLine(tool: string, check: NextCall | undefined, happened: string): string {
  const how = check ? `call ${sayNext(check)} to see what it did` : 'check on the platform what it did';
  return `${happened}: ${how}, and do not call ${tool} again for this.`;
}
