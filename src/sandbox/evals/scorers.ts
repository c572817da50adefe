import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { badRequest, SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { evalOwner, evalTables, notFound } from './access.js';
import { DescriptionSchema, NameSchema, parseWith } from './input.js';
import { BUILTIN_SCORERS, findBuiltin, readDefinition } from './scorer-config.js';
import { newId, SCORER_TYPES, type ScorerVersion } from './store.js';
import { list, scorerView } from './views.js';

const ScorerId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'ids are 1..100 letters, digits, `_`, `.` or `-`');

const CreateScorer = z.object({
  id: ScorerId.optional(),
  scorer_id: ScorerId.optional(),
  name: NameSchema.optional(),
  description: DescriptionSchema,
  scorer_type: z.enum(SCORER_TYPES),
  config: z.record(z.string(), z.unknown()).nullable().optional(),
  prompt: z.string().max(20_000).nullable().optional(),
  judge_model: z.string().nullable().optional(),
});

/** The latest version of a scorer the key may use: a built-in one or its own. */
export function latestScorer(ctx: SandboxContext, owner: string, id: string): ScorerVersion | undefined {
  return findBuiltin(id) ?? evalTables(ctx).scorers.get(owner, id)?.versions.at(-1);
}

/**
 * `/api/v1/evals/scorers` (spec 2 §4.11). Posting an id the key already has adds a version;
 * reads give the latest one; built-in scorers are listed first and cannot be replaced or deleted.
 */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext, base: string): void {
  const scorers = evalTables(ctx).scorers;

  app.get(`${base}/scorers`, (c) => {
    const owner = evalOwner(c, ctx);
    const own = scorers.list(owner).map((s) => s.versions.at(-1)!);
    return c.json(list([...BUILTIN_SCORERS, ...own].map(scorerView)));
  });

  app.post(`${base}/scorers`, (c) => {
    const owner = evalOwner(c, ctx);
    const body = parseWith(CreateScorer, jsonBody(c));
    if (body.id !== undefined && body.scorer_id !== undefined && body.id !== body.scorer_id) {
      throw badRequest(
        '`id` and `scorer_id` name the same thing; send one.',
        'invalid_parameter_value',
        'id',
      );
    }
    const definition = readDefinition(body);
    const id = body.id ?? body.scorer_id ?? generatedId(owner);
    if (findBuiltin(id)) {
      throw new SandboxError(409, `"${id}" is a built-in scorer; choose another id.`, {
        code: 'conflict',
        param: 'id',
      });
    }
    const scorer = scorers.get(owner, id) ?? scorers.put({ id, owner, versions: [] });
    const version: ScorerVersion = {
      id,
      versionId: newId(ctx.state, 'evalscorerver_'),
      version: scorer.versions.length + 1,
      name: body.name ?? id,
      description: body.description ?? null,
      ...definition,
      createdAt: ctx.now(),
      builtin: false,
    };
    scorer.versions.push(version);
    return c.json(scorerView(version), 201);
  });

  app.get(`${base}/scorers/:id`, (c) => {
    const id = c.req.param('id');
    const scorer = latestScorer(ctx, evalOwner(c, ctx), id);
    if (!scorer) throw notFound('scorer', id);
    return c.json(scorerView(scorer));
  });

  app.delete(`${base}/scorers/:id`, (c) => {
    const owner = evalOwner(c, ctx);
    const id = c.req.param('id');
    if (findBuiltin(id)) {
      throw new SandboxError(403, `"${id}" is a built-in scorer and cannot be deleted.`, {
        code: 'permission_denied',
      });
    }
    if (!scorers.delete(owner, id)) throw notFound('scorer', id);
    return c.json({ deleted: true, id });
  });

  const generatedId = (owner: string): string => {
    let id: string;
    do id = newId(ctx.state, 'evalscorer_');
    while (scorers.get(owner, id));
    return id;
  };
}
