import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import { SandboxError } from '../errors.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { evalOwner, evalTables, notFound } from './access.js';
import { DescriptionSchema, NameSchema, optionalJsonBody, parseWith, RowSchema } from './input.js';
import { type Dataset, type DatasetVersion, newId, nextNumber } from './store.js';
import { datasetView, list, versionView } from './views.js';

/** Custom dataset ids: `evaldataset_` then 6..80 letters, digits, underscores or dashes (spec 2 §2.7). */
const CUSTOM_DATASET_ID = /^evaldataset_[A-Za-z0-9_-]{6,80}$/;

/** The sandbox keeps datasets in memory, so it caps their size (the spec gives no figure). */
const MAX_DATASET_ITEMS = 10_000;

const CreateDataset = z.object({
  id: z
    .string()
    .regex(
      CUSTOM_DATASET_ID,
      'a custom id is `evaldataset_` then 6..80 letters, digits, underscores or dashes',
    )
    .optional(),
  name: NameSchema,
  description: DescriptionSchema,
  items: z.array(RowSchema).max(MAX_DATASET_ITEMS).optional(),
});

const CreateVersion = z.object({ source: z.string().min(1).max(100).optional() });

/** `/api/v1/evals/datasets` and their versions (spec 2 §4.11). */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext, base: string): void {
  const { datasets, versions } = evalTables(ctx);
  /** Deleted datasets are gone for every route but their versions' snapshots. */
  const find = (owner: string, id: string): Dataset => {
    const dataset = datasets.get(owner, id);
    if (!dataset || dataset.deletedAt !== undefined) throw notFound('dataset', id);
    return dataset;
  };

  /** Generated ids follow the custom-id rule too; one a caller already took is skipped. */
  const generatedId = (owner: string): string => {
    let id: string;
    do id = `evaldataset_sbx${String(nextNumber(ctx.state, 'evaldataset_')).padStart(6, '0')}`;
    while (datasets.get(owner, id));
    return id;
  };

  app.get(`${base}/datasets`, (c) => {
    const owner = evalOwner(c, ctx);
    const live = datasets.list(owner).filter((d) => d.deletedAt === undefined);
    return c.json(list(live.map((d) => datasetView(d, false))));
  });

  app.post(`${base}/datasets`, (c) => {
    const owner = evalOwner(c, ctx);
    const body = parseWith(CreateDataset, jsonBody(c));
    if (body.id !== undefined && datasets.get(owner, body.id)) {
      throw new SandboxError(
        409,
        `Dataset "${body.id}" already exists (ids of deleted datasets are not reused).`,
        {
          code: 'conflict',
          param: 'id',
        },
      );
    }
    const now = ctx.now();
    const dataset = datasets.put({
      id: body.id ?? generatedId(owner),
      owner,
      name: body.name,
      description: body.description ?? null,
      items: (body.items ?? []).map((row) => ({ ...row, id: newId(ctx.state, 'evalitem_') })),
      createdAt: now,
      updatedAt: now,
      versionCount: 0,
    });
    return c.json(datasetView(dataset, true), 201);
  });

  app.get(`${base}/datasets/:id`, (c) =>
    c.json(datasetView(find(evalOwner(c, ctx), c.req.param('id')), true)),
  );

  app.delete(`${base}/datasets/:id`, (c) => {
    const dataset = find(evalOwner(c, ctx), c.req.param('id'));
    dataset.deletedAt = ctx.now();
    return c.json({ deleted: true, id: dataset.id });
  });

  app.get(`${base}/datasets/:id/versions`, (c) => {
    const owner = evalOwner(c, ctx);
    const dataset = find(owner, c.req.param('id'));
    const mine = versions.list(owner).filter((v) => v.datasetId === dataset.id);
    return c.json(list(mine.map(versionView)));
  });

  /** Freezes the current rows into a new immutable version. */
  app.post(`${base}/datasets/:id/versions`, (c) => {
    const owner = evalOwner(c, ctx);
    const dataset = find(owner, c.req.param('id'));
    const body = parseWith(CreateVersion, optionalJsonBody(c));
    dataset.versionCount += 1;
    const version: DatasetVersion = versions.put({
      id: newId(ctx.state, 'evaldsver_'),
      owner,
      datasetId: dataset.id,
      version: dataset.versionCount,
      items: dataset.items.map((item) => ({
        id: newId(ctx.state, 'evaldsveritem_'),
        datasetItemId: item.id,
        input: structuredClone(item.input),
        expected_output: structuredClone(item.expected_output ?? null),
        context: structuredClone(item.context ?? null),
        metadata: structuredClone(item.metadata ?? {}),
      })),
      source: body.source ?? 'api',
      createdAt: ctx.now(),
    });
    dataset.updatedAt = version.createdAt;
    return c.json(versionView(version), 201);
  });
}
