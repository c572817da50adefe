import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, out, startHarness, textOf } from '../helpers/harness.js';

// Issue 32 item 5: replies shaped as the platform's published reference shows them, served as
// they are (a fault's verbatim body or a reshape of the sandbox's own), so each case fails on a
// client that reads them otherwise, whatever the sandbox answers itself.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { toolsets: 'all' } });
});
afterAll(async () => {
  await h.close();
});

const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await h.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
};
/** The next request to this route is answered with `body`, as the platform sent it. */
const serve = (method: string, path: string, body: unknown) =>
  h.sandbox.faults.add({ match: { method, path }, status: 200, body });

describe('web_search, sourced answer', () => {
  it('reads the answer and sources nested under data', async () => {
    serve('POST', '/api/web', {
      data: {
        answer: 'Rayleigh scattering makes the sky blue [1].',
        sources: [
          { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
        ],
      },
      metadata: { query: 'why is the sky blue', outputType: 'sourcedAnswer', cost: 0.006 },
    });
    const got = out(await ok('web_search', { query: 'why is the sky blue', output: 'sourcedAnswer' }));
    expect(got).toMatchObject({
      answer: 'Rayleigh scattering makes the sky blue [1].',
      results: [
        { title: 'Why the sky is blue', url: 'https://example.org/sky', snippet: 'Short waves scatter.' },
      ],
      cost: 0.006,
    });
  });
});
