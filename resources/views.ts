import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../src/errors.js';
import { APP_MIME_TYPE, VIEWS, type ViewName, viewUri } from '../src/mcp/apps.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { packageRoot } from '../src/package-root.js';
import { URI_SCHEME } from '../src/word.js';

const TITLES: Record<ViewName, string> = {
  gallery: 'Images, full size on click, with vary and edit actions',
  player: 'Video and audio played inline; a running job shows its progress',
  payment: 'A payment quote: each rail with its QR code, the expiry, and "I have paid"',
  usage: 'Quotas as meters, and the spend budget',
  scores: 'An evaluation: candidates by scorers, with a heat map',
  attestation: 'An enclave attestation as a checklist',
};

/**
 * The MCP Apps views (`ui://orbit/<view>`): self-contained HTML that `npm run build` bundles into
 * dist/views/. Read from disk only when a host asks, so start-up never pays for them.
 */
export default defineResource({
  uriTemplate: `ui://${URI_SCHEME}/{view}`,
  name: 'view',
  title: 'A view for MCP Apps hosts',
  description: 'HTML that shows a tool result (images, players, payments, usage, scores, attestation).',
  mimeType: APP_MIME_TYPE,
  async list() {
    return VIEWS.map((view) => ({ uri: viewUri(view), name: view, title: TITLES[view] }));
  },
  async read(params, { target }) {
    const view = VIEWS.find((name) => name === params.view);
    if (!view) throw new InputError(`No view "${params.view}".`, { fix: `Views: ${VIEWS.join(', ')}.` });
    const text = await readFile(join(builtViews(), `${view}.html`), 'utf8').catch(() => {
      throw new Error(`The view ${view} is not built; run npm run build.`);
    });
    // A video the platform hosts plays from its own URL: the view may load media from that origin.
    const origin = target.kind === 'none' ? undefined : new URL(target.baseUrl).origin;
    const csp = origin ? { resourceDomains: [origin] } : {};
    return { text, _meta: { ui: { csp, prefersBorder: true } } };
  },
});

/** dist/views of this package. */
const builtViews = () => join(packageRoot(), 'dist', 'views');
