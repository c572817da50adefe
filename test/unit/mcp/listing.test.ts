import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../../../src/errors.js';
import { parseArguments } from '../../../src/mcp/arguments.js';
import { defineTool } from '../../../src/mcp/define-tool.js';
import { toolListing } from '../../../src/mcp/listing.js';

function tool(input: z.ZodObject) {
  return defineTool({
    name: 'models_list',
    title: 'A tool',
    description: 'Does one thing.',
    toolset: 'models',
    credential: 'none',
    nature: 'read',
    input,
    output: z.object({ ok: z.boolean() }),
    run: async () => ({ ok: true }),
  });
}

const withRecord = tool(
  z.object({
    prompt: z.string(),
    options: z.record(z.string(), z.unknown()).optional().describe('other model fields'),
    steps: z.array(z.object({ params: z.record(z.string(), z.number()) })).optional(),
    settings: z.looseObject({}).optional(),
    input: z.unknown().optional().describe('text or list'),
  }),
);

describe('tools/list input schemas convert to OpenAI strict mode', () => {
  it('closes the input of a tool that takes no arguments', () => {
    expect(toolListing(tool(z.object({}))).inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });

  it('lists a record as a string of JSON, keeping its description', () => {
    const { properties } = toolListing(withRecord).inputSchema;
    expect(properties?.options).toEqual({ type: 'string', description: 'JSON object: other model fields' });
    expect(properties?.steps).toMatchObject({ items: { properties: { params: { type: 'string' } } } });
  });

  it('lists an object without properties as a string of JSON too', () => {
    expect(toolListing(withRecord).inputSchema.properties?.settings).toEqual({
      type: 'string',
      description: 'JSON object',
    });
  });

  it('gives an untyped value the string type', () => {
    const listed = toolListing(tool(z.object({ content: z.any().describe('text or blocks') })));
    expect(listed.inputSchema.properties?.content).toEqual({ type: 'string', description: 'text or blocks' });
  });

  it('still leaves out additionalProperties on objects that declare properties (tokens)', () => {
    const listed = toolListing(tool(z.object({ item: z.object({ id: z.string() }) })));
    expect(JSON.stringify(listed.inputSchema)).not.toContain('additionalProperties');
  });
});

describe('record arguments sent as JSON text', () => {
  it('are parsed into the object the tool expects, at any depth', () => {
    const args = parseArguments(withRecord, {
      prompt: 'p',
      options: '{"seed": 7, "mode": "fast"}',
      steps: [{ params: '{"a": 1}' }],
      settings: '{"store_content": false}',
    });
    expect(args).toEqual({
      prompt: 'p',
      options: { seed: 7, mode: 'fast' },
      steps: [{ params: { a: 1 } }],
      settings: { store_content: false },
    });
  });

  it('parse JSON text given for an untyped value only when it is an object or array', () => {
    const given = (input: string) => parseArguments(withRecord, { prompt: 'p', input }).input;
    expect(given('["a", "b"]')).toEqual(['a', 'b']);
    expect(given('{"a": 1}')).toEqual({ a: 1 });
    expect(given('plain text')).toBe('plain text');
    expect(given('[not json')).toBe('[not json');
    expect(given('42')).toBe('42');
  });

  it('are taken as objects too', () => {
    expect(parseArguments(withRecord, { prompt: 'p', options: { seed: 7 } })).toMatchObject({
      options: { seed: 7 },
    });
  });

  it('are refused with the argument named when the text is not a JSON object', () => {
    for (const options of ['seed=7', '[1, 2]', '"text"'])
      expect(() => parseArguments(withRecord, { prompt: 'p', options })).toThrow(
        expect.objectContaining({
          constructor: InputError,
          param: 'options',
          message: expect.stringContaining('options: expected a JSON object'),
        }),
      );
  });
});
