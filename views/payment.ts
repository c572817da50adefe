/**
 * An x402 quote (web_search, data_call with payment x402): the amount in USD, one tab per rail with
 * its amount, address and QR code, the expiry counting down, and "I have paid" (x402_complete).
 */
import { encode } from 'uqr';
import { h, list, plain, record, startView, str, type View } from './shared/view.js';

const main = document.getElementById('view')!;
document.head.append(
  h(
    'style',
    {},
    '[role=tablist]{display:flex;flex-wrap:wrap;gap:4px;margin:8px 0}[role=tab][aria-selected=true]{background:var(--accent);color:var(--bg)}' +
      'canvas{background:#fff;border-radius:6px;max-width:100%;image-rendering:pixelated}.pay{display:grid;gap:6px}',
  ),
);

interface Rail {
  scheme: string;
  kind: string;
  network?: string;
  amount?: string;
  pay_to?: string;
  asset?: string;
  invoice?: string;
}

startView('payment', (result, view) => {
  const payment = record(result.structuredContent?.payment);
  const quoteId = str(payment.quote_id);
  if (!quoteId) return plain(main, result, 'No payment is due for this result.');
  const rails = list(payment.rails).map((rail) => record(rail) as unknown as Rail);
  const expires = Date.parse(str(payment.expires_at) ?? '');
  const tabs = h('div', { role: 'tablist' });
  const panel = h('div', { class: 'pay', role: 'tabpanel' });
  const select = (index: number) => {
    for (const [i, tab] of [...tabs.children].entries())
      tab.setAttribute('aria-selected', String(i === index));
    panel.replaceChildren(...railPanel(rails[index]!, quoteId, view));
  };
  for (const [index, rail] of rails.entries()) {
    const tab = h('button', { role: 'tab', type: 'button', 'data-rail': rail.scheme }, railName(rail));
    tab.addEventListener('click', () => select(index));
    tabs.append(tab);
  }
  const clock = h('span', { id: 'expiry' });
  main.replaceChildren(
    h('h1', {}, 'Pay ', h('span', { id: 'amount' }, `$${str(payment.amount_usd) ?? '?'}`), ' to continue'),
    h('p', { class: 'muted' }, 'Expires in ', clock),
    tabs,
    panel,
  );
  countdown(clock, expires);
  if (rails.length) select(0);
});

/** The rail's own name (`base-usdc`, `lightning-l402`) tells rails on one network apart. */
const railName = (rail: Rail): string => rail.scheme;

/** What the host must send besides the quote: the lightning preimage, or an x402 wallet's signed payload. */
const PROOF: Record<string, { arg: string; label: string }> = {
  lightning: { arg: 'preimage', label: 'Preimage from your wallet' },
  exact: { arg: 'x_payment', label: 'X-PAYMENT payload from your x402 wallet' },
};

/** What the wallet scans: the invoice for lightning, else the address to pay. */
const scanned = (rail: Rail): string | undefined => (rail.kind === 'lightning' ? rail.invoice : rail.pay_to);

function railPanel(rail: Rail, quoteId: string, view: View): Node[] {
  const target = scanned(rail);
  const nodes: Node[] = [
    h(
      'p',
      {},
      'Amount ',
      h('b', { class: 'rail-amount' }, rail.amount ?? '?'),
      rail.network ? ` on ${rail.network}` : '',
    ),
  ];
  if (rail.asset) nodes.push(h('p', { class: 'muted mono' }, `token ${rail.asset}`));
  if (target) {
    nodes.push(qr(target), h('p', { class: 'mono', id: 'pay-target' }, target));
    const copy = h('button', { type: 'button' }, 'Copy');
    copy.addEventListener('click', () => void navigator.clipboard?.writeText(target).catch(() => {}));
    nodes.push(h('div', { class: 'row' }, copy));
  }
  const proof = PROOF[rail.kind];
  const field =
    proof &&
    h('input', { id: proof.arg.replace('_', '-'), placeholder: proof.label, 'aria-label': proof.label });
  const paid = h('button', { id: 'paid', type: 'button', class: 'primary' }, 'I have paid');
  const status = h('p', { class: 'status', role: 'status' });
  paid.addEventListener('click', async () => {
    const args: Record<string, unknown> = { quote_id: quoteId };
    if (proof && field) {
      const value = (field as HTMLInputElement).value.trim();
      if (!value) {
        status.textContent = `Paste the ${proof.label.toLowerCase()}.`;
        return;
      }
      args[proof.arg] = value;
    }
    paid.setAttribute('disabled', '');
    status.textContent = 'Checking the payment…';
    try {
      const out = await view.call('x402_complete', args);
      status.textContent = `Payment ${str(out.status) ?? 'sent'}.`;
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
      paid.removeAttribute('disabled');
    }
  });
  nodes.push(h('div', { class: 'row' }, field, paid), status);
  return nodes;
}

/** The QR code on a canvas: black on white with a four-module quiet zone, whatever the theme. */
function qr(text: string): HTMLCanvasElement {
  const code = encode(text, { ecc: 'M', border: 4 });
  const scale = Math.max(2, Math.floor(240 / code.size));
  const canvas = h('canvas', {
    class: 'qr',
    'data-text': text,
    'aria-label': `QR code of ${text}`,
  }) as HTMLCanvasElement;
  canvas.width = canvas.height = code.size * scale;
  const draw = canvas.getContext('2d')!;
  draw.fillStyle = '#fff';
  draw.fillRect(0, 0, canvas.width, canvas.height);
  draw.fillStyle = '#000';
  for (const [y, row] of code.data.entries())
    for (const [x, dark] of row.entries()) if (dark) draw.fillRect(x * scale, y * scale, scale, scale);
  return canvas;
}

function countdown(clock: HTMLElement, expires: number): void {
  const tick = () => {
    const left = Math.max(0, Math.round((expires - Date.now()) / 1000));
    clock.textContent = Number.isNaN(left)
      ? 'unknown'
      : left
        ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
        : 'expired';
    if (left > 0) setTimeout(tick, 1000);
  };
  tick();
}
