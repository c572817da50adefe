import type { Price } from './ledger.js';

/**
 * What a paid call reserves when its tool cannot price it beforehand (no catalog price, no
 * estimate before sending): a stated ceiling per tool, said in the refusal, set above what the
 * platform's public prices make a usual call cost. The cost the reply states is what settles.
 */
const CEILINGS_USD: Readonly<Record<string, number>> = {
  chat: 0.25,
  embed: 0.05,
  image_generate: 0.5,
  image_edit: 0.5,
  music_generate: 1,
  speech_generate: 0.25,
  transcribe: 1,
  data_call: 0.1,
  eval_run: 2,
  video_generate: 3,
  video_extend: 3,
  web_search: 0.06,
  transcribe_video_links: 0.1,
};
const FALLBACK_CEILING_USD = 1;

export function ceilingFor(tool: string): Price {
  const usd = CEILINGS_USD[tool] ?? FALLBACK_CEILING_USD;
  return {
    usd,
    basis: `a ceiling of ${usd} USD per ${tool} call, whose cost is not known before it is sent`,
  };
}
