import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';
import { dataCatalog } from '../tools/data/shared.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://data/endpoints`,
  name: 'data-endpoints',
  title: 'Data API catalog',
  description:
    'Every data API endpoint with its methods, category, pricing, path and description (for data_call).',
  mimeType: 'application/json',
  async list() {
    return [{ uri: `${URI_SCHEME}://data/endpoints`, name: 'data endpoints' }];
  },
  async read(_params, ctx) {
    const { data, meta } = await dataCatalog(ctx);
    return { text: JSON.stringify({ endpoints: data, ...(meta ? { meta } : {}) }) };
  },
});
