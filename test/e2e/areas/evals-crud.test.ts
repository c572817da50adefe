import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/sandbox/types.js';
import { type Harness, out, startHarness, textOf } from '../../helpers/harness.js';

/** evals_read and evals_write end to end: every operation's happy path and its error paths. */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'evals' } });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.sandbox.clearRequests());

const EVALS = '/api/v1/evals';
const evalRequests = (): RecordedRequest[] => h.sandbox.requests.filter((r) => r.path.startsWith(EVALS));
const only = () => {
  const seen = evalRequests();
  expect(seen.map((r) => `${r.method} ${r.path}`)).toHaveLength(1);
  return seen[0]!;
};
const write = (args: Record<string, unknown>) => h.call('evals_write', args);
const read = (args: Record<string, unknown>) => h.call('evals_read', args);

/** An isError result whose text names the error code and says `fix`. */
function failed(result: Awaited<ReturnType<typeof write>>, code: string, pattern?: RegExp) {
  expect(result.isError, textOf(result)).toBe(true);
  expect(textOf(result)).toContain(`Error (${code}`);
  if (pattern) expect(textOf(result)).toMatch(pattern);
}

describe('projects', () => {
  it('creates, lists, reads, updates and deletes a project, sending exactly the spec bodies', async () => {
    const created = await write({
      operation: 'projects.create',
      name: 'Capitals',
      settings: { store_content: true, redaction: 'pii' },
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    const project = out(created).data;
    expect(out(created).operation).toBe('projects.create');
    expect(project).toMatchObject({ id: expect.stringMatching(/^evalproj_/), name: 'Capitals' });
    expect(only()).toMatchObject({
      method: 'POST',
      path: `${EVALS}/projects`,
      json: { name: 'Capitals', settings: { store_content: true, redaction: 'pii' } },
    });
    expect(only().headers.authorization).toBe(`Bearer ${h.sandbox.demoKey}`);

    h.sandbox.clearRequests();
    const listed = out(await read({ operation: 'projects.list' })).data;
    expect(listed.data.map((p: { id: string }) => p.id)).toContain(project.id);
    expect(only()).toMatchObject({ method: 'GET', path: `${EVALS}/projects` });

    h.sandbox.clearRequests();
    const got = out(await read({ operation: 'projects.get', id: project.id })).data;
    expect(got).toMatchObject({ id: project.id, settings: { store_content: true, redaction: 'pii' } });
    expect(only()).toMatchObject({ method: 'GET', path: `${EVALS}/projects/${project.id}` });

    h.sandbox.clearRequests();
    const updated = await write({ operation: 'projects.update', id: project.id, name: 'World capitals' });
    expect(out(updated).data).toMatchObject({ id: project.id, name: 'World capitals' });
    expect(only()).toMatchObject({
      method: 'PATCH',
      path: `${EVALS}/projects/${project.id}`,
      json: { name: 'World capitals' },
    });

    h.sandbox.clearRequests();
    const deleted = await write({ operation: 'projects.delete', id: project.id });
    expect(out(deleted).data).toEqual({ deleted: true, id: project.id });
    expect(only()).toMatchObject({ method: 'DELETE', path: `${EVALS}/projects/${project.id}` });

    h.sandbox.clearRequests();
    failed(await write({ operation: 'projects.delete', id: project.id }), 'not_found', /HTTP 404/);
    failed(await read({ operation: 'projects.get', id: project.id }), 'not_found');
    expect(evalRequests().map((r) => r.status)).toEqual([404, 404]);
  });

  it('refuses a create without a name, an empty update and a stray argument before sending', async () => {
    failed(await write({ operation: 'projects.create' }), 'invalid_input', /`name` is required/);
    failed(await write({ operation: 'projects.update', id: 'evalproj_x' }), 'invalid_input', /Nothing/);
    failed(
      await write({ operation: 'projects.create', name: 'x', rows: [{ input: 'a' }] }),
      'invalid_input',
      /`rows` does not apply to projects.create[\s\S]*takes name, description, settings/,
    );
    failed(
      await write({ operation: 'projects.create', name: 'x', settings: { store_content: 'yes' } }),
      'invalid_input',
      /settings.store_content/,
    );
    failed(await read({ operation: 'projects.get' }), 'invalid_input', /`id` is required for projects.get/);
    expect(evalRequests()).toHaveLength(0);
  });

  it("passes the platform's own 400 on, naming its parameter", async () => {
    const result = await write({ operation: 'projects.create', name: 'n'.repeat(201) });
    failed(result, 'bad_request', /parameter name/);
    expect(only()).toMatchObject({ method: 'POST', status: 400 });
  });

  it("does not show another key's project (404)", async () => {
    const mine = out(await write({ operation: 'projects.create', name: 'Private' })).data;
    const other = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: h.sandbox.state.createKey(), source: 'env' }],
      config: { toolsets: 'evals' },
    });
    try {
      failed(await other.call('evals_read', { operation: 'projects.get', id: mine.id }), 'not_found');
      const theirs = out(await other.call('evals_read', { operation: 'projects.list' })).data;
      expect(theirs.data).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('says so when the key is refused (401)', async () => {
    const stranger = await startHarness({
      sharedSandbox: h.sandbox,
      credentials: [{ kind: 'api_key', value: 'sk-orbit-unknown-key', source: 'env' }],
      config: { toolsets: 'evals' },
    });
    try {
      failed(await stranger.call('evals_read', { operation: 'scorers.list' }), 'unauthorized', /HTTP 401/);
    } finally {
      await stranger.close();
    }
  });
});

describe('datasets', () => {
  const rows = [
    { input: 'What is 2+2?', expected_output: '4', metadata: { topic: 'math' } },
    { input: 'Capital of Spain?', expected_output: 'Madrid', system: 'Be brief.' },
  ];

  it('creates with a custom id and rows, reads it with its rows, freezes versions and deletes it', async () => {
    const created = await write({
      operation: 'datasets.create',
      id: 'evaldataset_quiz_001',
      name: 'Quiz',
      rows,
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(out(created).data).toMatchObject({ id: 'evaldataset_quiz_001', name: 'Quiz', item_count: 2 });
    expect(only()).toMatchObject({
      method: 'POST',
      path: `${EVALS}/datasets`,
      json: { id: 'evaldataset_quiz_001', name: 'Quiz', items: rows },
    });

    const got = out(await read({ operation: 'datasets.get', id: 'evaldataset_quiz_001' })).data;
    expect(got.items.map((i: { input: string }) => i.input)).toEqual([rows[0]!.input, rows[1]!.input]);
    const listed = out(await read({ operation: 'datasets.list' })).data;
    expect(listed.data.map((d: { id: string }) => d.id)).toContain('evaldataset_quiz_001');

    h.sandbox.clearRequests();
    const frozen = await write({ operation: 'datasets.freeze', id: 'evaldataset_quiz_001' });
    expect(out(frozen).data).toMatchObject({
      id: expect.stringMatching(/^evaldsver_/),
      dataset_id: 'evaldataset_quiz_001',
      version: 1,
      item_count: 2,
    });
    expect(out(frozen).data.items).toBeUndefined();
    expect(only()).toMatchObject({ method: 'POST', path: `${EVALS}/datasets/evaldataset_quiz_001/versions` });
    await write({ operation: 'datasets.freeze', id: 'evaldataset_quiz_001' });

    h.sandbox.clearRequests();
    const versions = out(await read({ operation: 'datasets.versions', id: 'evaldataset_quiz_001' })).data;
    expect(
      versions.data.map((v: { version: number; item_count: number }) => [v.version, v.item_count]),
    ).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(only()).toMatchObject({ method: 'GET', path: `${EVALS}/datasets/evaldataset_quiz_001/versions` });

    h.sandbox.clearRequests();
    expect(out(await write({ operation: 'datasets.delete', id: 'evaldataset_quiz_001' })).data).toEqual({
      deleted: true,
      id: 'evaldataset_quiz_001',
    });
    expect(only()).toMatchObject({ method: 'DELETE', path: `${EVALS}/datasets/evaldataset_quiz_001` });
    failed(await read({ operation: 'datasets.get', id: 'evaldataset_quiz_001' }), 'not_found');
    failed(await write({ operation: 'datasets.freeze', id: 'evaldataset_quiz_001' }), 'not_found');
    failed(await write({ operation: 'datasets.delete', id: 'evaldataset_quiz_001' }), 'not_found');
  });

  it('refuses a custom id that breaks the evaldataset_ rule before sending', async () => {
    for (const id of [
      'quiz_001',
      'evaldataset_abc',
      'evaldataset_has space',
      `evaldataset_${'x'.repeat(81)}`,
    ]) {
      failed(
        await write({ operation: 'datasets.create', id, name: 'Quiz' }),
        'invalid_input',
        /evaldataset_ followed/,
      );
    }
    expect(evalRequests()).toHaveLength(0);
  });

  it('answers 409 for an id that is taken', async () => {
    await write({ operation: 'datasets.create', id: 'evaldataset_taken_1', name: 'One' });
    h.sandbox.clearRequests();
    failed(
      await write({ operation: 'datasets.create', id: 'evaldataset_taken_1', name: 'Two' }),
      'conflict',
      /HTTP 409/,
    );
    expect(only().status).toBe(409);
  });

  it('refuses rows without input or with a misspelt field, naming the row', async () => {
    failed(
      await write({
        operation: 'datasets.create',
        name: 'Q',
        rows: [{ input: 'a' }, { expected_output: 'b' }],
      }),
      'invalid_input',
      /`rows\[1\]`: every row needs a non-empty input/,
    );
    failed(
      await write({ operation: 'datasets.create', name: 'Q', rows: [{ input: 'a', expected: 'b' }] }),
      'invalid_input',
      /`rows\[0\]`: "expected" is not a row field[\s\S]*put anything else under metadata/,
    );
    expect(evalRequests()).toHaveLength(0);
  });

  it('reads rows from a JSONL file and a CSV file inside the allowed folders', async () => {
    const jsonl = join(h.outputDir, 'quiz.jsonl');
    await writeFile(jsonl, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const fromJsonl = await write({ operation: 'datasets.create', name: 'From JSONL', rows: jsonl });
    expect(fromJsonl.isError, textOf(fromJsonl)).toBeFalsy();
    expect(only().json).toEqual({ name: 'From JSONL', items: rows });

    h.sandbox.clearRequests();
    const csv = join(h.outputDir, 'quiz.csv');
    await writeFile(
      csv,
      'input,expected_output,metadata.topic\r\n"What is 2+2?",4,math\r\n"Capital of Spain, in one word?",Madrid,\r\n',
    );
    const fromCsv = await write({ operation: 'datasets.create', name: 'From CSV', rows: csv });
    expect(fromCsv.isError, textOf(fromCsv)).toBeFalsy();
    expect(only().json).toEqual({
      name: 'From CSV',
      items: [
        { input: 'What is 2+2?', expected_output: '4', metadata: { topic: 'math' } },
        { input: 'Capital of Spain, in one word?', expected_output: 'Madrid' },
      ],
    });
  });

  it('names the bad line of a rows file, and refuses unknown CSV columns and files outside the folders', async () => {
    const jsonl = join(h.outputDir, 'broken.jsonl');
    await writeFile(jsonl, '{"input": "ok"}\n{"input": \n');
    failed(
      await write({ operation: 'datasets.create', name: 'Q', rows: jsonl }),
      'invalid_input',
      /\(line 2\)/,
    );
    const csv = join(h.outputDir, 'columns.csv');
    await writeFile(csv, 'question,answer\nA,B\n');
    failed(
      await write({ operation: 'datasets.create', name: 'Q', rows: csv }),
      'invalid_input',
      /column "question" is not a row field/,
    );
    failed(
      await write({ operation: 'datasets.create', name: 'Q', rows: '/etc/hostname' }),
      'invalid_input',
      /outside the folders[\s\S]*pass the rows inline/,
    );
    expect(evalRequests()).toHaveLength(0);
  });

  it('over HTTP refuses a local rows file by design, saying to pass the rows inline', async () => {
    const remote = await startHarness({
      sharedSandbox: h.sandbox,
      trust: 'remote',
      config: { toolsets: 'evals' },
    });
    try {
      const path = join(h.outputDir, 'quiz.jsonl');
      await writeFile(path, '{"input": "a"}\n');
      const result = await remote.call('evals_write', {
        operation: 'datasets.create',
        name: 'Q',
        rows: path,
      });
      failed(result, 'invalid_input', /over HTTP this server does not read local files \(by design/);
      expect(textOf(result)).toContain('Pass the rows inline');
      expect(evalRequests()).toHaveLength(0);
    } finally {
      await remote.close();
    }
  });
});

describe('scorers', () => {
  it('lists built-in scorers first and reads one', async () => {
    const listed = out(await read({ operation: 'scorers.list' })).data;
    expect(listed.data.slice(0, 5).map((s: { id: string }) => s.id)).toEqual([
      'exact_match',
      'contains',
      'json_valid',
      'llm_judge',
      'pairwise_llm',
    ]);
    h.sandbox.clearRequests();
    const got = out(await read({ operation: 'scorers.get', id: 'exact_match' })).data;
    expect(got).toMatchObject({
      id: 'exact_match',
      scorer_type: 'exact_match',
      config: { case_sensitive: true },
    });
    expect(only()).toMatchObject({ method: 'GET', path: `${EVALS}/scorers/exact_match` });
    failed(await read({ operation: 'scorers.get', id: 'no_such_scorer' }), 'not_found');
  });

  it('creates a scorer of every type of the spec, with its config as sent', async () => {
    const defs = [
      { scorer_type: 'exact_match', config: { case_sensitive: false } },
      { scorer_type: 'contains', config: { value: 'Paris' } },
      { scorer_type: 'regex', config: { pattern: '^Sandbox', flags: 'i' } },
      { scorer_type: 'json_schema', config: { schema: { type: 'object' } } },
      { scorer_type: 'threshold', config: { metric: 'length', max: 400 } },
      { scorer_type: 'llm_judge', prompt: 'Rate {{output}} against {{expected_output}} for {{input}}.' },
      { scorer_type: 'pairwise_llm', config: { pass_threshold: 0.6 }, judge_model: 'openai/gpt-sandbox' },
    ];
    for (const [i, def] of defs.entries()) {
      h.sandbox.clearRequests();
      const id = `my_${def.scorer_type}`;
      const result = await write({ operation: 'scorers.create', id, name: `Mine ${i}`, ...def });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(out(result).data).toMatchObject({ id, scorer_type: def.scorer_type, version: 1 });
      expect(only()).toMatchObject({
        method: 'POST',
        path: `${EVALS}/scorers`,
        json: { id, name: `Mine ${i}`, ...def },
      });
    }
    h.sandbox.clearRequests();
    expect(out(await write({ operation: 'scorers.delete', id: 'my_regex' })).data).toEqual({
      deleted: true,
      id: 'my_regex',
    });
    expect(only()).toMatchObject({ method: 'DELETE', path: `${EVALS}/scorers/my_regex` });
    failed(await read({ operation: 'scorers.get', id: 'my_regex' }), 'not_found');
  });

  it('checks scorer configs and judge prompts before sending', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ scorer_type: 'llm_judge' }, /`prompt`: an llm_judge scorer needs a prompt/],
      [{ scorer_type: 'llm_judge', prompt: 'Is {{answer}} right?' }, /unknown placeholder \{\{answer\}\}/],
      [{ scorer_type: 'llm_judge', prompt: 'Is {{input}} hard?' }, /the judge never sees the answer/],
      [
        { scorer_type: 'regex', config: { pattern: '(' } },
        /`config.pattern`: not a valid regular expression/,
      ],
      [{ scorer_type: 'regex' }, /`config.pattern`/],
      [{ scorer_type: 'json_schema' }, /`config.schema`/],
      [{ scorer_type: 'threshold', config: { metric: 'length' } }, /give min, max or both/],
      [{ scorer_type: 'threshold', config: { min: 5, max: 1 } }, /`config.min`: min is above max/],
      [{ scorer_type: 'exact_match', config: { case_sensitive: 'no' } }, /`config.case_sensitive`/],
      [{ scorer_type: 'contains', prompt: 'x {{output}}' }, /`prompt`: applies only to llm_judge/],
      [
        { scorer_type: 'llm_judge', prompt: '{{output}}', config: { pass_threshold: 2 } },
        /config.pass_threshold/,
      ],
      [{}, /`scorer_type` is required/],
      [{ scorer_type: 'fuzzy' }, /`scorer_type`: Invalid option[\s\S]*exact_match, contains, regex/],
    ];
    for (const [def, pattern] of cases) {
      failed(await write({ operation: 'scorers.create', ...def }), 'invalid_input', pattern);
    }
    expect(evalRequests()).toHaveLength(0);
  });

  it('cannot replace (409) or delete (403) a built-in scorer', async () => {
    failed(await write({ operation: 'scorers.create', id: 'contains', scorer_type: 'contains' }), 'conflict');
    failed(await write({ operation: 'scorers.delete', id: 'exact_match' }), 'forbidden', /HTTP 403/);
    expect(evalRequests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 409', 'DELETE 403']);
  });
});
