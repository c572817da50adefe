import { describe, expect, it } from 'vitest';
import { commonError, EVALS, evalClient, type Reply } from './evals-helpers.js';
import { useSandbox } from './helpers.js';

const START = Date.UTC(2026, 0, 5, 12, 0, 0);
const clock = START;
const sandbox = useSandbox({ now: () => clock });
const client = () => evalClient(sandbox, sandbox().state.createKey());

describe('sandbox evals: auth and envelopes', () => {
  it('answers 401 missing_api_key in the common envelope without a key', async () => {
    const res = await fetch(`${sandbox().url}${EVALS}/projects`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(commonError('authentication_error', 'missing_api_key'));
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 401 invalid_api_key for an unknown key, by x-api-key too', async () => {
    const res = await fetch(`${sandbox().url}${EVALS}/datasets`, {
      headers: { 'x-api-key': 'sk-nope-nope' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(commonError('authentication_error', 'invalid_api_key'));
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const res = await client().post('/projects', '{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(commonError('invalid_request_error', 'invalid_json'));
  });
});

describe('sandbox evals: projects', () => {
  it('creates, lists, reads, updates and deletes a project', async () => {
    const api = client();
    const created = await api.post('/projects', { name: 'QA', description: 'capitals', settings: { a: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^evalproj_\d{6}$/),
      object: 'eval.project',
      name: 'QA',
      description: 'capitals',
      settings: { a: 1 },
      created_at: new Date(START).toISOString(),
      updated_at: new Date(START).toISOString(),
    });
    const id = created.body.id;
    expect((await api.get('/projects')).body).toEqual({ object: 'list', data: [created.body] });
    expect((await api.get(`/projects/${id}`)).body).toEqual(created.body);
    const patched = await api.patch(`/projects/${id}`, { name: 'QA 2', settings: { store_content: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      name: 'QA 2',
      description: 'capitals',
      settings: { store_content: true },
    });
    expect(await api.delete(`/projects/${id}`)).toMatchObject({ status: 200, body: { deleted: true, id } });
    const gone = await api.get(`/projects/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(commonError('not_found_error', 'not_found'));
    expect((await api.get('/projects')).body.data).toEqual([]);
  });

  it('refuses a project without a name and a patch with bad settings', async () => {
    const api = client();
    const missing = await api.post('/projects', { description: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(commonError('invalid_request_error', 'missing_required_parameter', 'name'));
    const { body } = await api.post('/projects', { name: 'p' });
    const bad = await api.patch(`/projects/${body.id}`, { settings: 'loud' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(commonError('invalid_request_error', 'invalid_parameter_value', 'settings'));
    expect((await api.patch('/projects/evalproj_999999', { name: 'x' })).status).toBe(404);
    expect((await api.delete('/projects/evalproj_999999')).status).toBe(404);
  });
});

const ROWS = [
  { input: 'What is the capital of France?', expected_output: 'Paris', metadata: { topic: 'geo', level: 1 } },
  { input: 'Name a primary colour', expected_output: 'red', context: { hint: 'rgb' } },
];

describe('sandbox evals: datasets and versions', () => {
  it('creates a dataset with a custom id and rows, lists it without rows, reads it with rows', async () => {
    const api = client();
    const created = await api.post('/datasets', {
      id: 'evaldataset_capitals-01',
      name: 'Capitals',
      items: ROWS,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'evaldataset_capitals-01',
      object: 'eval.dataset',
      name: 'Capitals',
      description: null,
      item_count: 2,
      latest_version: null,
    });
    expect(created.body.items).toEqual([
      {
        id: expect.stringMatching(/^evalitem_/),
        input: ROWS[0]!.input,
        output: null,
        system: null,
        expected_output: 'Paris',
        context: null,
        metadata: { topic: 'geo', level: 1 },
      },
      expect.objectContaining({ input: ROWS[1]!.input, context: { hint: 'rgb' }, metadata: {} }),
    ]);
    const listed = await api.get('/datasets');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].items).toBeUndefined();
    expect((await api.get('/datasets/evaldataset_capitals-01')).body).toEqual(created.body);
  });

  it('generates ids that follow the evaldataset_ rule', async () => {
    const { body } = await client().post('/datasets', { name: 'auto' });
    expect(body.id).toMatch(/^evaldataset_[A-Za-z0-9_-]{6,80}$/);
    expect(body.items).toEqual([]);
  });

  it.each([
    ['a wrong prefix', 'dataset_abcdef'],
    ['a short suffix', 'evaldataset_abc'],
    ['a long suffix', `evaldataset_${'x'.repeat(81)}`],
    ['a bad character', 'evaldataset_abc def'],
  ])('refuses a custom id with %s', async (_what, id) => {
    const res = await client().post('/datasets', { id, name: 'n' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(commonError('invalid_request_error', 'invalid_parameter_value', 'id'));
  });

  it('accepts the longest custom id and answers 409 for one the key already has', async () => {
    const api = client();
    const id = `evaldataset_${'x'.repeat(80)}`;
    expect((await api.post('/datasets', { id, name: 'n' })).status).toBe(201);
    const again = await api.post('/datasets', { id, name: 'n' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(commonError('conflict_error', 'conflict', 'id'));
  });

  it('names the row whose input is missing', async () => {
    const res = await client().post('/datasets', {
      name: 'n',
      items: [{ input: 'ok' }, { expected_output: 'x' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      commonError('invalid_request_error', 'missing_required_parameter', 'items[1].input'),
    );
  });

  it('freezes rows into numbered immutable versions and lists them', async () => {
    const api = client();
    const { body: ds } = await api.post('/datasets', { name: 'v', items: ROWS });
    const v1 = await api.post(`/datasets/${ds.id}/versions`);
    expect(v1.status).toBe(201);
    expect(v1.body).toEqual({
      id: expect.stringMatching(/^evaldsver_/),
      object: 'eval.dataset_version',
      dataset_id: ds.id,
      version: 1,
      item_count: 2,
      items: [
        {
          id: expect.stringMatching(/^evaldsveritem_/),
          dataset_item_id: ds.items[0].id,
          input: ROWS[0]!.input,
          expected_output: 'Paris',
          context: null,
          metadata: { topic: 'geo', level: 1 },
          metadata_index: { topic: 'geo', level: '1' },
        },
        expect.objectContaining({ dataset_item_id: ds.items[1].id, context: { hint: 'rgb' } }),
      ],
      source: 'api',
      created_at: new Date(START).toISOString(),
    });
    const v2 = await api.post(`/datasets/${ds.id}/versions`, { source: 'workbench' });
    expect(v2.body).toMatchObject({ version: 2, source: 'workbench' });
    expect((await api.get(`/datasets/${ds.id}`)).body.latest_version).toBe(2);
    const versions = await api.get(`/datasets/${ds.id}/versions`);
    expect(versions.body.data.map((v: Reply) => v.version)).toEqual([1, 2]);
    const bad = await api.post(`/datasets/${ds.id}/versions`, { source: 5 });
    expect(bad.body).toEqual(commonError('invalid_request_error', 'invalid_parameter_value', 'source'));
  });

  it('marks a deleted dataset gone for every dataset route', async () => {
    const api = client();
    const { body: ds } = await api.post('/datasets', { name: 'd', items: ROWS });
    expect(await api.delete(`/datasets/${ds.id}`)).toMatchObject({
      status: 200,
      body: { deleted: true, id: ds.id },
    });
    expect((await api.get(`/datasets/${ds.id}`)).status).toBe(404);
    expect((await api.get(`/datasets/${ds.id}/versions`)).status).toBe(404);
    expect((await api.post(`/datasets/${ds.id}/versions`)).status).toBe(404);
    expect((await api.delete(`/datasets/${ds.id}`)).status).toBe(404);
    expect((await api.get('/datasets')).body.data).toEqual([]);
  });
});

describe('sandbox evals: scoping per key', () => {
  it("never shows one key's projects, datasets, scorers or experiments to another", async () => {
    const a = client();
    const b = client();
    const project = (await a.post('/projects', { name: 'mine' })).body;
    const dataset = (await a.post('/datasets', { id: 'evaldataset_shared-name', name: 'd', items: ROWS }))
      .body;
    const version = (await a.post(`/datasets/${dataset.id}/versions`)).body;
    const scorer = (await a.post('/scorers', { id: 'my-scorer', scorer_type: 'contains' })).body;
    const exp = (
      await a.post('/experiments', {
        dataset_version_id: version.id,
        candidates: [{ model: 'openai/gpt-sandbox-mini' }],
        scorer_ids: ['my-scorer'],
      })
    ).body;
    expect((await b.get('/projects')).body.data).toEqual([]);
    expect((await b.get('/datasets')).body.data).toEqual([]);
    expect((await b.get('/experiments')).body.data).toEqual([]);
    expect((await b.get('/scorers')).body.data.every((s: Reply) => s.builtin)).toBe(true);
    for (const path of [
      `/projects/${project.id}`,
      `/datasets/${dataset.id}`,
      `/datasets/${dataset.id}/versions`,
      `/scorers/${scorer.id}`,
      `/experiments/${exp.id}`,
      `/experiments/${exp.id}/output_items`,
    ]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual(commonError('not_found_error', 'not_found'));
    }
    expect((await b.patch(`/projects/${project.id}`, { name: 'x' })).status).toBe(404);
    expect((await b.delete(`/projects/${project.id}`)).status).toBe(404);
    expect((await b.delete(`/datasets/${dataset.id}`)).status).toBe(404);
    expect((await b.delete(`/scorers/${scorer.id}`)).status).toBe(404);
    expect((await b.post(`/experiments/${exp.id}/cancel`)).status).toBe(404);
    const borrowed = await b.post('/experiments', {
      dataset_version_id: version.id,
      candidates: [{ model: 'openai/gpt-sandbox-mini' }],
    });
    expect(borrowed.status).toBe(404);
    expect(borrowed.body).toEqual(commonError('not_found_error', 'not_found', 'dataset_version_id'));
    // The same custom id is free for another key, and its objects stay apart.
    expect((await b.post('/datasets', { id: dataset.id, name: 'theirs' })).status).toBe(201);
    expect((await a.get(`/datasets/${dataset.id}`)).body.name).toBe('d');
  });
});
