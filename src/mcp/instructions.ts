import type { Target } from './define-tool.js';

/** Short server instructions: what this is and the one thing a model must know about the target. */
export function instructionsFor(target: Target): string {
  const base =
    'Orbit platform tools: chat with any model, web search, data API, media generation, embeddings, usage and account. Call models_list to find model ids.';
  if (target.kind === 'sandbox')
    return `${base} Running on the offline sandbox: replies are deterministic and free.`;
  if (target.kind === 'none')
    return `${base} No platform is configured: tools will say how to set ORBIT_BASE_URL and ORBIT_API_KEY, or restart with --sandbox.`;
  return base;
}
