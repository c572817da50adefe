import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';
import { readUsage } from '../tools/account/usage.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://usage`,
  name: 'usage',
  title: 'Subscription usage',
  description: 'Subscription quotas used and left, reset times, and the spend budget (as usage_get).',
  mimeType: 'application/json',
  async list() {
    return [{ uri: `${URI_SCHEME}://usage`, name: 'usage', title: 'Subscription usage' }];
  },
  async read(_params, ctx) {
    return { text: JSON.stringify(await readUsage(ctx)) };
  },
});
