import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MissingCredentialError, NoPlatformError } from '../../../src/errors.js';
import { createFiles } from '../../../src/files/files.js';
import { MediaStore } from '../../../src/files/media-store.js';
import { inputErrorFrom } from '../../../src/mcp/arguments.js';
import { defineTool } from '../../../src/mcp/define-tool.js';
import { outputErrorFrom, renderError, renderResult } from '../../../src/mcp/render.js';
import { createRedactor } from '../../../src/secrets.js';
import { errorFromResponse } from '../../../src/upstream/envelopes.js';

const redactor = createRedactor();
const files = createFiles(
  { outputDir: '/nonexistent', media: new MediaStore() },
  { trust: 'local', tenant: 'local' },
);

const output = z.object({ models: z.array(z.object({ id: z.string() })) });

const withText = defineTool({
  name: 'models_list',
  title: 'List models',
  description: 'Lists models.',
  toolset: 'models',
  credential: 'none',
  nature: 'read',
  input: z.object({}),
  output,
  run: async () => ({ models: [{ id: 'a' }, { id: 'b' }] }),
  text: (result) => result.models.map((model) => model.id).join(', '),
  content: () => [{ type: 'resource_link', uri: 'orbit://models', name: 'models' }],
});

const withoutText = defineTool({ ...withText, text: undefined, content: undefined });

describe('renderResult', () => {
  it("uses the tool's text() and keeps the data as structuredContent", async () => {
    const data = { models: [{ id: 'a' }, { id: 'b' }] };
    expect(await renderResult(withText, data, files, redactor)).toEqual({
      content: [
        { type: 'text', text: 'a, b' },
        { type: 'resource_link', uri: 'orbit://models', name: 'models' },
      ],
      structuredContent: data,
    });
  });

  it('falls back to JSON text when the tool has no text()', async () => {
    const data = { models: [{ id: 'a' }] };
    expect(await renderResult(withoutText, data, files, redactor)).toEqual({
      content: [{ type: 'text', text: '{"models":[{"id":"a"}]}' }],
      structuredContent: data,
    });
  });
});

describe('renderError', () => {
  it('shows code, status, message, upstream code with param, fix, retry-after and request id', () => {
    const error = errorFromResponse(
      429,
      {
        error: {
          message: 'Too many requests',
          type: 'rate_limit_error',
          code: 'rate_limit_exceeded',
          param: 'model',
        },
      },
      { requestId: 'req_abc', retryAfterMs: 1_500 },
    );
    const result = renderError(error, redactor);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          'Error (rate_limited, HTTP 429): Too many requests',
          'Platform code: rate_limit_exceeded (parameter model)',
          'Fix: Rate limited; wait 2 s before calling again.',
          'Retry after: 2 s',
          'Request id: req_abc',
        ].join('\n'),
      },
    ]);
  });

  it('lists scalar details and leaves out nested ones', () => {
    const error = new MissingCredentialError('This needs management token, and none is configured.', {
      fix: 'Set ORBIT_MANAGEMENT_TOKEN.',
      details: { credential: 'management_token', nested: { a: 1 }, missing: undefined },
    });
    expect(renderError(error, redactor).content[0]).toEqual({
      type: 'text',
      text: [
        'Error (missing_credential): This needs management token, and none is configured.',
        'Fix: Set ORBIT_MANAGEMENT_TOKEN.',
        'credential: management_token',
      ].join('\n'),
    });
  });

  it('names every bad argument path of the input', () => {
    const schema = z.object({ model: z.string(), options: z.object({ n: z.number().int().min(1) }) });
    const parsed = schema.safeParse({ model: 3, options: { n: 0 } });
    const text = renderError(inputErrorFrom(parsed.error!), redactor).content[0];
    const body = text && 'text' in text ? text.text : '';
    expect(body).toMatch(/^Error \(invalid_input\): Invalid arguments: /);
    expect(body).toContain('model: ');
    expect(body).toContain('options.n: ');
    expect(body).toContain('Fix: Correct the named arguments');
  });

  it("reports a result that breaks the tool's own output schema as our bug, never as bad input", () => {
    const parsed = z.object({ images: z.array(z.object({ uri: z.string() })) }).safeParse({ images: [{}] });
    const text = renderError(outputErrorFrom(parsed.error!, 'image_generate'), redactor).content[0];
    const body = text && 'text' in text ? text.text : '';
    expect(body).toMatch(/^Error \(output_invalid\): image_generate produced a result .* at `images.0.uri`/);
    expect(body).toMatch(/bug in orbit-mcp, not in your arguments/);
  });

  it("reports a stray ZodError as internal, never as the caller's bad input", () => {
    const parsed = z.object({ a: z.string() }).safeParse({});
    const text = renderError(parsed.error, redactor).content[0];
    expect(text && 'text' in text ? text.text : '').toMatch(/^Error \(internal_error\)/);
  });

  it('names (arguments) for a problem with the whole input', () => {
    const parsed = z.object({}).safeParse('nope');
    expect(inputErrorFrom(parsed.error!).message).toMatch(/^Invalid arguments: \(arguments\): /);
  });

  it('renders an unknown Error by its message only, never its stack', () => {
    const error = new TypeError('cannot read properties of undefined');
    const result = renderError(error, redactor);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          'Error (internal_error): cannot read properties of undefined',
          'Fix: This is unexpected; call again, and report it if it persists.',
        ].join('\n'),
      },
    ]);
    expect(JSON.stringify(result)).not.toContain('    at ');
  });

  it('renders a thrown non-Error value as text', () => {
    expect(renderError('plain string', redactor).content[0]).toMatchObject({
      text: expect.stringContaining('plain string'),
    });
  });

  it('renders a bare OrbitError without empty lines', () => {
    expect(renderError(new NoPlatformError('No platform.'), redactor).content).toEqual([
      { type: 'text', text: 'Error (no_platform): No platform.' },
    ]);
  });
});
