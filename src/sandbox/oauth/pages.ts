/** The platform's own pages: the consent screen and the error page shown instead of a bad redirect. */

const SCOPE_TEXT: Record<string, string> = {
  'models.read': 'Read public model catalogs and pricing',
  'api.use': 'Use the API with a key issued to this app, paid from your balance',
};

export interface ConsentView {
  consentId: string;
  appName: string;
  redirectUri: string;
  account: string;
  balanceUsd: number;
  scope: string;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
.card{border:1px solid #d0d0d7;border-radius:12px;padding:1.5rem}.warn{background:#fff6e0;border-radius:8px;padding:.75rem 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#666}button{font:inherit;padding:.5rem 1.25rem;border-radius:8px;border:1px solid #888;margin-right:.5rem;cursor:pointer}
button.approve{background:#1f6feb;color:#fff;border-color:#1f6feb}fieldset{border:1px solid #d0d0d7;border-radius:8px;margin:1rem 0}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function consentPage(view: ConsentView): string {
  const host = new URL(view.redirectUri).host;
  const scopes = view.scope
    .split(' ')
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`)
    .join('');
  const balance = `${view.balanceUsd.toFixed(2)} USD`;
  return layout(
    `Authorize ${view.appName}`,
    `<main class="card"><h1>Authorize <span id="app-name">${escapeHtml(view.appName)}</span></h1>
<dl><dt>App</dt><dd>${escapeHtml(view.appName)}</dd>
<dt>Redirects to</dt><dd id="redirect-host">${escapeHtml(host)}</dd>
<dt>Account</dt><dd id="account">${escapeHtml(view.account)}</dd>
<dt>Balance</dt><dd id="balance">${escapeHtml(balance)}</dd></dl>
<p>This app asks to:</p><ul id="scopes">${scopes}</ul>
<p class="warn" id="spend-warning"><strong>This app will get its own API key that can spend from your balance (${escapeHtml(balance)}).</strong>
Set a spend cap below to limit it. You can disable, limit or delete the key in your settings at any time.</p>
<form method="post" action="/oauth/consent">
<input type="hidden" name="consent_id" value="${escapeHtml(view.consentId)}">
<fieldset><legend>App spend cap (optional)</legend>
<label>USD <input type="number" name="spend_cap" min="0" step="0.01" placeholder="no cap"></label>
<label>per <select name="spend_cap_period"><option value="daily">day</option><option value="weekly">week</option><option value="monthly" selected>month</option></select></label>
<p><small>Leave empty for no app cap; 0 blocks paid spend.</small></p></fieldset>
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></main>`,
  );
}

export function errorPage(error: string, description: string): string {
  return layout(
    'Authorization error',
    `<main class="card"><h1>This authorization request cannot be completed</h1>
<p><code id="error">${escapeHtml(error)}</code>: <span id="error-description">${escapeHtml(description)}</span></p>
<p>You were not sent back to the app. Close this tab and start again from the app.</p></main>`,
  );
}

/** No framing, no scripts; forms may post here and be redirected to the app's own origin. */
export function pageHeaders(redirectUri?: string): Record<string, string> {
  const formAction = redirectUri ? `'self' ${new URL(redirectUri).origin}` : "'self'";
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
