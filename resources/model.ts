import { InputError } from '../src/errors.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';
import { modelIdOfKind, modelKinds } from '../tools/models/completions.js';
import { fetchModel } from '../tools/models/shared.js';
import { parseKind } from './models.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://models/{kind}/{id}`,
  name: 'model',
  title: 'One model',
  description: 'One model in full: details, pricing, providers or endpoint metadata.',
  mimeType: 'application/json',
  complete: { kind: modelKinds, id: modelIdOfKind },
  async read(params, { api }) {
    const kind = parseKind(params.kind);
    const id = params.id ?? '';
    const found = await fetchModel(api, kind, id);
    if (!found)
      throw new InputError(`No ${kind} model "${id}".`, {
        fix: `Read ${URI_SCHEME}://models/${kind} for valid ids.`,
      });
    return { text: JSON.stringify({ id, kind, ...found }) };
  },
});
