/** tee_attestation / tee_verify / chat with verify: each check passed, failed or not checked, with its reason. */
import { h, list, plain, present, record, startView, str } from './shared/view.js';

const main = document.getElementById('view')!;
const MARK: Record<string, [string, string]> = {
  passed: ['✓', 'ok'],
  failed: ['✗', 'bad'],
  not_checked: ['–', 'warn'],
};

startView('attestation', (result) => {
  const top = result.structuredContent ?? {};
  // chat carries its reply's verification beside the text.
  const out = top.verification ? record(top.verification) : top;
  if (typeof out.verified !== 'boolean')
    return plain(main, result, 'No attestation in this result; ask with verify: true on an enclave model.');
  const checks = list(out.checks).map(record);
  const measurements = Object.entries(record(out.measurements));
  const signer = str(out.signing_address) ?? str(out.signer);
  main.replaceChildren(
    ...present(
      h(
        'h1',
        { class: out.verified ? 'ok' : 'bad', id: 'verdict' },
        out.verified ? '✓ Verified' : '✗ Not verified',
        str(out.model ?? top.model) ? ` · ${out.model ?? top.model}` : '',
      ),
      signer ? h('p', {}, 'Signing address ', h('span', { class: 'mono', id: 'signer' }, signer)) : false,
      str(out.verdict) ? h('p', { id: 'reason' }, str(out.verdict)!) : false,
      h(
        'ul',
        { id: 'checks', style: 'list-style:none;padding:0' },
        ...checks.map((check) => {
          const status = str(check.status) ?? 'not_checked';
          const [mark, tone] = MARK[status] ?? ['?', 'warn'];
          return h(
            'li',
            { 'data-check': str(check.id), 'data-status': status },
            h('b', { class: tone }, `${mark} ${str(check.id) ?? ''}`),
            ' ',
            h('span', { class: 'muted' }, str(check.reason) ?? ''),
          );
        }),
        ...(checks.length
          ? []
          : list(out.failed).map((id) =>
              h(
                'li',
                { 'data-check': String(id), 'data-status': 'failed' },
                h('b', { class: 'bad' }, `✗ ${id}`),
              ),
            )),
      ),
      measurements.length
        ? h(
            'details',
            {},
            h('summary', {}, 'Measurements'),
            h(
              'table',
              { id: 'measurements' },
              ...measurements.map(([k, v]) =>
                h('tr', {}, h('th', {}, k), h('td', { class: 'mono' }, String(v))),
              ),
            ),
          )
        : false,
      str(out.note) ? h('p', { class: 'muted' }, str(out.note)!) : false,
    ),
  );
});
