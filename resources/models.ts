import { InputError } from '../src/errors.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';
import { modelKinds } from '../tools/models/completions.js';
import { fetchCatalog, MODEL_KINDS, type ModelKind, summarize } from '../tools/models/shared.js';

export function parseKind(kind: string | undefined): ModelKind {
  if (MODEL_KINDS.includes(kind as ModelKind)) return kind as ModelKind;
  throw new InputError(`Unknown model kind "${kind}".`, { fix: `Use one of ${MODEL_KINDS.join(', ')}.` });
}

export default defineResource({
  uriTemplate: `${URI_SCHEME}://models/{kind}`,
  name: 'models',
  title: 'Model catalog',
  description: 'The catalog of one kind of model (text, image, video, audio, embedding).',
  mimeType: 'application/json',
  complete: { kind: modelKinds },
  async list() {
    return MODEL_KINDS.map((kind) => ({ uri: `${URI_SCHEME}://models/${kind}`, name: `${kind} models` }));
  },
  async read(params, { api }) {
    const kind = parseKind(params.kind);
    const models = await fetchCatalog(api, kind, { detailed: kind === 'text' });
    return { text: JSON.stringify({ kind, models: models.map(summarize) }) };
  },
});
