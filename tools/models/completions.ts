import { type Completer, type CompletionContext, startingWith } from '../../src/mcp/define-prompt.js';
import { TenantCache } from '../../src/tenant-cache.js';
import { fetchCatalog, MODEL_KINDS, type ModelKind } from './shared.js';

/**
 * Model ids for completion, read with the code models_list uses. A client asks on every keystroke,
 * so each tenant's catalog of a kind is kept for a minute (per platform address: the catalog an
 * account sees depends on its subscription). A request in flight is shared, a failed one forgotten.
 */
const catalogs = new TenantCache<Promise<readonly string[]>>({ perTenant: 16, total: 512, ttlMs: 60_000 });

function modelIds(kind: ModelKind, ctx: CompletionContext): Promise<readonly string[]> {
  const view = catalogs.forTenant(ctx.tenant);
  const key = `${ctx.target.kind === 'none' ? '' : ctx.target.baseUrl}\n${kind}`;
  let ids = view.get(key);
  if (!ids) {
    const fetching = fetchCatalog(ctx.api, kind).then((models) => models.map((model) => model.id));
    fetching.catch(() => {
      if (view.get(key) === fetching) view.delete(key);
    });
    view.set(key, fetching);
    ids = fetching;
  }
  return ids;
}

/** Ids that start with what was typed, then ids whose name after the provider does (`gpt` finds `openai/gpt-…`). */
export function matchingIds(ids: readonly string[], typed: string): string[] {
  const prefix = typed.trim().toLowerCase();
  const whole = ids.filter((id) => id.toLowerCase().startsWith(prefix));
  const chosen = new Set(whole);
  const named = ids.filter(
    (id) =>
      !chosen.has(id) &&
      id.includes('/') &&
      id
        .slice(id.lastIndexOf('/') + 1)
        .toLowerCase()
        .startsWith(prefix),
  );
  return [...whole, ...named];
}

/** Completes one model id of a kind. */
export function modelId(kind: ModelKind): Completer {
  return async (value, ctx) => matchingIds(await modelIds(kind, ctx), value);
}

/** For resource templates with `{kind}` and `{id}`: the kinds, and the ids of the kind already filled in (text when none). */
export const modelKinds: Completer = async (value) => startingWith(MODEL_KINDS, value);
export const modelIdOfKind: Completer = async (value, ctx) => {
  const kind = MODEL_KINDS.find((known) => known === (ctx.arguments.kind ?? 'text'));
  return kind ? modelId(kind)(value, ctx) : [];
};

/**
 * Completes the last id of a comma-separated list, keeping what comes before it as typed and
 * leaving out ids already in the list.
 */
export function modelIdList(kind: ModelKind): Completer {
  return async (value, ctx) => {
    const { head, last, chosen } = splitList(value);
    return matchingIds(await modelIds(kind, ctx), last)
      .filter((id) => !chosen.has(id))
      .map((id) => `${head}${id}`);
  };
}

export function splitList(value: string): { head: string; last: string; chosen: Set<string> } {
  const cut = value.lastIndexOf(',') + 1;
  const rest = value.slice(cut);
  const head = value.slice(0, cut + rest.length - rest.trimStart().length);
  const chosen = new Set(
    value
      .slice(0, cut)
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  );
  return { head, last: rest.trim(), chosen };
}
