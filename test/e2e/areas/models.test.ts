import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('models_list', () => {
  it('lists text model ids, and details on request', async () => {
    const plain = await h.call('models_list', {});
    const out = plain.structuredContent as { total: number; models: { id: string; pricing?: unknown }[] };
    expect(out.total).toBeGreaterThan(3);
    expect(out.models.map((m) => m.id)).toContain('openai/gpt-sandbox');
    expect(out.models[0]?.pricing).toBeUndefined();
    const detailed = await h.call('models_list', { detailed: true, filter: 'gpt-sandbox' });
    const d = detailed.structuredContent as { models: { id: string; pricing?: unknown }[] };
    expect(d.models.every((m) => m.id.includes('gpt-sandbox'))).toBe(true);
    expect(d.models[0]?.pricing).toBeDefined();
    expect(h.sandbox.requests.some((r) => r.path === '/api/v1/models' && r.query.detailed === 'true')).toBe(
      true,
    );
  });

  it('reads the subscription and paid catalogs and other kinds', async () => {
    h.sandbox.clearRequests();
    await h.call('models_list', { scope: 'subscription' });
    await h.call('models_list', { scope: 'paid' });
    const images = await h.call('models_list', { kind: 'image' });
    expect((images.structuredContent as { total: number }).total).toBeGreaterThan(0);
    const paths = h.sandbox.requests.map((r) => r.path);
    expect(paths).toEqual(['/api/subscription/v1/models', '/api/paid/v1/models', '/api/v1/images/models']);
  });

  it('rejects an unknown kind with the list of valid ones', async () => {
    const result = await h.call('models_list', { kind: 'smell' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/kind/);
  });
});

describe('models_get', () => {
  it('returns a text model with its providers', async () => {
    const result = await h.call('models_get', { id: 'openai/gpt-sandbox' });
    const out = result.structuredContent as { model: { id: string }; providers: unknown };
    expect(out.model.id).toBe('openai/gpt-sandbox');
    expect(out.providers).toBeDefined();
    expect(h.sandbox.requests.some((r) => r.path === '/api/models/openai%2Fgpt-sandbox/providers')).toBe(
      true,
    );
  });

  it('returns an image model with its endpoint metadata', async () => {
    const list = await h.call('models_list', { kind: 'image' });
    const id = (list.structuredContent as { models: { id: string }[] }).models[0]!.id;
    const result = await h.call('models_get', { id, kind: 'image' });
    expect(result.isError).toBeFalsy();
    expect(Array.isArray((result.structuredContent as { endpoints: unknown[] }).endpoints)).toBe(true);
  });

  it('says how to find ids when the model does not exist', async () => {
    const result = await h.call('models_get', { id: 'no/such-model' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('models_list');
  });
});

describe('model resources', () => {
  it('reads orbit://models/{kind} and orbit://models/{kind}/{id}', async () => {
    const templates = await h.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining(['orbit://models/{kind}', 'orbit://models/{kind}/{id}']),
    );
    const catalog = await h.client.readResource({ uri: 'orbit://models/text' });
    const text = catalog.contents[0] as { text: string };
    expect(JSON.parse(text.text).models.length).toBeGreaterThan(3);
    const one = await h.client.readResource({ uri: 'orbit://models/text/openai/gpt-sandbox' });
    expect(JSON.parse((one.contents[0] as { text: string }).text).model.id).toBe('openai/gpt-sandbox');
  });

  it('refuses an unknown kind', async () => {
    await expect(h.client.readResource({ uri: 'orbit://models/smell' })).rejects.toThrow(
      /Unknown model kind/,
    );
  });
});

describe('resource reads', () => {
  it('answers a URI no resource serves with -32602 and the URI in the error data', async () => {
    const uri = 'orbit://nothing/here';
    const error = await h.client.readResource({ uri }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: -32602, data: { uri } });
  });

  it('answers a malformed % escape with -32602 (invalid params), not an internal error', async () => {
    for (const uri of ['orbit://media/%zz', 'orbit://models/text/openai%E0%A4%A']) {
      const error = await h.client.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/malformed % escape/) });
    }
  });
});
