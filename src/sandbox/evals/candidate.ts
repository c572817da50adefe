import { SandboxError } from '../errors.js';
import { generate, settle } from '../text/generate.js';
import { resolveTextModel } from '../text/resolve.js';
import type { SandboxContext } from '../types.js';
import type { Candidate, Experiment, ExperimentItem, TraceResult } from './experiment.js';
import { asText, render } from './input.js';

/**
 * A candidate's answer to a row is exactly what `POST /api/v1/chat/completions` answers for
 *
 *   messages = [{role: 'system', content: system}] (when there is one) + [{role: 'user', content: prompt}]
 *
 * where `prompt` is the candidate's prompt with every `{{input}}` replaced by the row's input
 * (a string as it is, any other value as JSON) and `system` is the candidate's `system`, else the
 * inline row's. The sandbox's text models (text/generate.ts) answer that with
 *
 *   Sandbox reply to: "<prompt with whitespace runs collapsed to one space, trimmed, first 200
 *   characters>". This answer comes from the orbit sandbox, which gives the same words to the same
 *   request, so tests and offline agents can rely on it.
 *
 * with chat's token counts and price, and the trace is charged what that chat call costs.
 * `latency_ms` is 100 + 10 per completion token, so it too is the same on every run.
 */

/** What a candidate needs of a row. */
type RowText = Pick<ExperimentItem, 'input' | 'system'>;

function candidatePrompt(candidate: Candidate, item: RowText): string {
  return render(candidate.prompt, { input: asText(item.input) ?? '' });
}

function candidateSystem(candidate: Candidate, item: RowText): string | undefined {
  return candidate.system ?? item.system;
}

/** The chat generation that answers one candidate on one item; nothing is charged yet. */
function generation(ctx: SandboxContext, owner: string, item: RowText, candidate: Candidate) {
  const prompt = candidatePrompt(candidate, item);
  const system = candidateSystem(candidate, item);
  const resolved = resolveTextModel(candidate.model);
  const gen = generate(ctx.state, {
    resolved,
    promptText: [system, prompt].filter((t) => t !== undefined).join('\n'),
    lastUserText: prompt,
    cacheScope: owner,
  });
  return { prompt, provider: resolved.model.owned_by, gen };
}

/** Runs one candidate on one item and charges it; a charge that fails fails the trace. */
export function answer(
  ctx: SandboxContext,
  exp: Experiment,
  item: ExperimentItem,
  candidate: Candidate,
  traceId: string,
  at: number,
): TraceResult {
  const { prompt, provider, gen } = generation(ctx, exp.owner, item, candidate);
  const base = {
    id: traceId,
    prompt,
    model: gen.modelId,
    provider,
    promptTokens: gen.promptTokens,
    completionTokens: gen.completionTokens,
    latencyMs: 100 + 10 * gen.completionTokens,
    startedAt: at - exp.stepMs,
    completedAt: at,
  };
  try {
    const key = ctx.state.getKey(exp.owner);
    if (!key) {
      throw new SandboxError(401, 'The API key that made this experiment no longer exists.', {
        code: 'invalid_api_key',
      });
    }
    settle(ctx, key, gen);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const code = error.code ?? (error.status === 402 ? 'insufficient_balance' : 'trace_failed');
    return { ...base, status: 'failed', output: null, costUsd: 0, error: { code, message: error.message } };
  }
  return { ...base, status: 'completed', output: gen.text, costUsd: gen.costUsd, error: null };
}

/** What every trace of the run will cost, to refuse with a 402 up front rather than fail halfway. */
export function plannedCost(
  ctx: SandboxContext,
  owner: string,
  items: readonly RowText[],
  candidates: readonly Candidate[],
): number {
  let usd = 0;
  for (const item of items) {
    for (const candidate of candidates) usd += generation(ctx, owner, item, candidate).gen.costUsd;
  }
  return usd;
}
