import { describe, expect, it } from 'vitest';
import { commonError, evalClient, type Reply } from './evals-helpers.js';
import { useSandbox } from './helpers.js';

const sandbox = useSandbox();
const client = () => evalClient(sandbox, sandbox().state.createKey());

const JUDGE_PROMPT = 'Question: {{input}}\nExpected: {{expected_output}}\nAnswer: {{ output }}';

describe('sandbox evals: scorers', () => {
  it('lists the built-in scorers first, with their full configs', async () => {
    const { status, body } = await client().get('/scorers');
    expect(status).toBe(200);
    expect(body.object).toBe('list');
    expect(body.data.map((s: Reply) => [s.id, s.scorer_type])).toEqual([
      ['exact_match', 'exact_match'],
      ['contains', 'contains'],
      ['json_valid', 'json_schema'],
      ['llm_judge', 'llm_judge'],
      ['pairwise_llm', 'pairwise_llm'],
    ]);
    expect(body.data[0]).toEqual({
      id: 'exact_match',
      object: 'eval.scorer',
      version_id: 'evalscorerver_builtin_exact_match',
      version: 1,
      name: 'Exact match',
      description: expect.any(String),
      scorer_type: 'exact_match',
      config: { case_sensitive: true, trim: true },
      prompt: null,
      judge_model: null,
      builtin: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.data[3]).toMatchObject({
      prompt: expect.stringContaining('{{output}}'),
      judge_model: 'openai/gpt-sandbox-mini',
    });
  });

  it.each([
    ['exact_match', { case_sensitive: false }, { case_sensitive: false, trim: true }],
    ['contains', { value: 'Paris' }, { case_sensitive: true, value: 'Paris' }],
    ['regex', { pattern: '^Sandbox', flags: 'i' }, { pattern: '^Sandbox', flags: 'i' }],
    [
      'json_schema',
      { schema: { type: 'object', required: ['a'] } },
      { schema: { type: 'object', required: ['a'] } },
    ],
    ['threshold', { max: 300, metric: 'length' }, { metric: 'length', max: 300 }],
  ])('creates a %s scorer and fills in its config defaults', async (type, config, expected) => {
    const { status, body } = await client().post('/scorers', {
      name: `my ${type}`,
      scorer_type: type,
      config,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^evalscorer_\d{6}$/),
      object: 'eval.scorer',
      version_id: expect.stringMatching(/^evalscorerver_/),
      version: 1,
      name: `my ${type}`,
      scorer_type: type,
      config: expected,
      prompt: null,
      judge_model: null,
      builtin: false,
    });
  });

  it('creates an llm_judge with its prompt, judge model and pass threshold', async () => {
    const { status, body } = await client().post('/scorers', {
      scorer_id: 'judge-1',
      scorer_type: 'llm_judge',
      prompt: JUDGE_PROMPT,
      judge_model: 'anthropic/claude-sandbox',
      config: { pass_threshold: 0.7 },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      id: 'judge-1',
      name: 'judge-1',
      prompt: JUDGE_PROMPT,
      judge_model: 'anthropic/claude-sandbox',
      config: { pass_threshold: 0.7 },
    });
  });

  it('creates a pairwise_llm with the default prompt and judge', async () => {
    const { body } = await client().post('/scorers', { scorer_type: 'pairwise_llm' });
    expect(body).toMatchObject({
      scorer_type: 'pairwise_llm',
      prompt: expect.stringContaining('{{output}}'),
      judge_model: 'openai/gpt-sandbox-mini',
      config: { pass_threshold: 0.5 },
    });
  });

  it.each([
    ['no scorer_type', {}, 'missing_required_parameter', 'scorer_type'],
    ['an unknown scorer_type', { scorer_type: 'python_code' }, 'invalid_parameter_value', 'scorer_type'],
    ['llm_judge without a prompt', { scorer_type: 'llm_judge' }, 'missing_required_parameter', 'prompt'],
    [
      'llm_judge with a blank prompt',
      { scorer_type: 'llm_judge', prompt: ' ' },
      'missing_required_parameter',
      'prompt',
    ],
    [
      'an unknown placeholder',
      { scorer_type: 'llm_judge', prompt: '{{output}} vs {{reference}}' },
      'invalid_parameter_value',
      'prompt',
    ],
    [
      'a judge prompt without {{output}}',
      { scorer_type: 'pairwise_llm', prompt: 'Is {{input}} good?' },
      'invalid_parameter_value',
      'prompt',
    ],
    [
      'an unknown judge model',
      { scorer_type: 'llm_judge', prompt: '{{output}}', judge_model: 'acme/none' },
      'model_not_found',
      'judge_model',
    ],
    [
      'a prompt on a rule scorer',
      { scorer_type: 'exact_match', prompt: '{{output}}' },
      'invalid_parameter_value',
      'prompt',
    ],
    [
      'a judge model on a rule scorer',
      { scorer_type: 'contains', judge_model: 'openai/gpt-sandbox' },
      'invalid_parameter_value',
      'judge_model',
    ],
    [
      'a non-boolean case_sensitive',
      { scorer_type: 'exact_match', config: { case_sensitive: 'yes' } },
      'invalid_parameter_value',
      'config.case_sensitive',
    ],
    [
      'an unknown config key',
      { scorer_type: 'exact_match', config: { ignore_case: true } },
      'invalid_parameter_value',
      'config',
    ],
    [
      'a regex without a pattern',
      { scorer_type: 'regex', config: {} },
      'missing_required_parameter',
      'config.pattern',
    ],
    [
      'a regex that does not compile',
      { scorer_type: 'regex', config: { pattern: '(' } },
      'invalid_parameter_value',
      'config',
    ],
    [
      'regex flags outside imsu',
      { scorer_type: 'regex', config: { pattern: 'a', flags: 'g' } },
      'invalid_parameter_value',
      'config.flags',
    ],
    [
      'an unusable JSON schema',
      { scorer_type: 'json_schema', config: { schema: { type: 'wat' } } },
      'invalid_parameter_value',
      'config',
    ],
    [
      'a threshold without bounds',
      { scorer_type: 'threshold', config: {} },
      'invalid_parameter_value',
      'config',
    ],
    [
      'a threshold with min above max',
      { scorer_type: 'threshold', config: { min: 5, max: 1 } },
      'invalid_parameter_value',
      'config',
    ],
    [
      'an unknown threshold metric',
      { scorer_type: 'threshold', config: { metric: 'vibes', min: 1 } },
      'invalid_parameter_value',
      'config.metric',
    ],
    [
      'a pass threshold above 1',
      { scorer_type: 'llm_judge', prompt: '{{output}}', config: { pass_threshold: 2 } },
      'invalid_parameter_value',
      'config.pass_threshold',
    ],
    ['a bad id', { id: 'has space', scorer_type: 'contains' }, 'invalid_parameter_value', 'id'],
    [
      'id and scorer_id that differ',
      { id: 'a', scorer_id: 'b', scorer_type: 'contains' },
      'invalid_parameter_value',
      'id',
    ],
  ])('refuses a scorer with %s', async (_what, body, code, param) => {
    const res = await client().post('/scorers', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(commonError('invalid_request_error', code, param));
  });

  it('adds a version when an id is posted again, and reads the latest', async () => {
    const api = client();
    const v1 = (
      await api.post('/scorers', { id: 'tone', scorer_type: 'contains', config: { value: 'please' } })
    ).body;
    const v2 = await api.post('/scorers', {
      id: 'tone',
      scorer_type: 'regex',
      config: { pattern: 'thanks' },
    });
    expect(v2.body).toMatchObject({ id: 'tone', version: 2, scorer_type: 'regex' });
    expect(v2.body.version_id).not.toBe(v1.version_id);
    expect((await api.get('/scorers/tone')).body).toEqual(v2.body);
    const own = (await api.get('/scorers')).body.data.filter((s: Reply) => !s.builtin);
    expect(own).toEqual([v2.body]);
  });

  it('reads a built-in scorer by id', async () => {
    const res = await client().get('/scorers/contains');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'contains', builtin: true, config: { case_sensitive: false } });
  });

  it('deletes every version of a scorer', async () => {
    const api = client();
    await api.post('/scorers', { id: 'gone', scorer_type: 'contains' });
    await api.post('/scorers', { id: 'gone', scorer_type: 'contains' });
    expect(await api.delete('/scorers/gone')).toMatchObject({
      status: 200,
      body: { deleted: true, id: 'gone' },
    });
    const res = await api.get('/scorers/gone');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(commonError('not_found_error', 'not_found'));
    expect((await api.delete('/scorers/gone')).status).toBe(404);
    // A new scorer under the old id starts again at version 1.
    expect((await api.post('/scorers', { id: 'gone', scorer_type: 'contains' })).body.version).toBe(1);
  });

  it('keeps built-in scorers from being replaced or deleted', async () => {
    const api = client();
    const replaced = await api.post('/scorers', { id: 'exact_match', scorer_type: 'exact_match' });
    expect(replaced.status).toBe(409);
    expect(replaced.body).toEqual(commonError('conflict_error', 'conflict', 'id'));
    const deleted = await api.delete('/scorers/llm_judge');
    expect(deleted.status).toBe(403);
    expect(deleted.body).toEqual(commonError('permission_error', 'permission_denied'));
  });
});
