import type { Context } from 'hono';
import { requireKey } from '../billing.js';
import { SandboxError } from '../errors.js';
import type { KeyRecord } from '../state.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import type { Experiment } from './experiment.js';
import { type Dataset, type DatasetVersion, type Project, type Scorer, table } from './store.js';
import { refresh } from './timeline.js';

/** Tables of every evaluation object, and the key check every evaluation route starts with. */
export function evalTables(ctx: SandboxContext) {
  return {
    projects: table<Project>(ctx.state, 'projects'),
    datasets: table<Dataset>(ctx.state, 'datasets'),
    versions: table<DatasetVersion>(ctx.state, 'versions'),
    scorers: table<Scorer>(ctx.state, 'scorers'),
    experiments: table<Experiment>(ctx.state, 'experiments'),
  };
}

/**
 * The caller's API key (spec 2 §4.11: bearer key; objects scoped to it). The key's experiments are
 * brought up to the sandbox clock first, so their work and charges land before anything is read.
 */
export function evalKey(c: Context<SandboxEnv>, ctx: SandboxContext): KeyRecord {
  const key = requireKey(c, ctx);
  for (const exp of evalTables(ctx).experiments.list(key.key)) refresh(ctx, exp);
  return key;
}

/** The owner every evaluation object is filed under: the caller's key. */
export const evalOwner = (c: Context<SandboxEnv>, ctx: SandboxContext): string => evalKey(c, ctx).key;

/** Another key's object and a missing one look the same: 404. */
export const notFound = (what: string, id: string): SandboxError =>
  new SandboxError(404, `No ${what} "${id}" for this API key.`, { code: 'not_found' });
