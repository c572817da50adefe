import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { PINNED_ROOTS, type TrustAnchor, type TrustedRoots } from '../../src/tee/index.js';

export const TEE_MODEL = 'TEE/llama-sandbox';
export const OTHER_TEE_MODEL = 'TEE/deepseek-sandbox';

/** A fixed 32-byte nonce, so a failure message shows a value a person can recognise. */
export const NONCE = 'c0ffee42'.repeat(8);

export async function getJson(sb: Sandbox, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sb.url}${path}`);
  return { status: res.status, body: await res.json() };
}

export async function attest(
  sb: Sandbox,
  model = TEE_MODEL,
  nonce = NONCE,
): Promise<Record<string, unknown>> {
  const res = await fetch(
    `${sb.url}/api/v1/tee/attestation?model=${encodeURIComponent(model)}&nonce=${nonce}`,
  );
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The vendors' pinned roots plus the sandbox's, fetched over the control route. */
export async function sandboxTrust(sb: Sandbox): Promise<TrustedRoots> {
  const { body } = await getJson(sb, '/__sandbox/tee/roots');
  const roots = body as { intel: TrustAnchor[]; nvidia: TrustAnchor[] };
  return {
    intel: [...PINNED_ROOTS.intel, ...roots.intel],
    nvidia: [...PINNED_ROOTS.nvidia, ...roots.nvidia],
  };
}

export async function corrupt(sb: Sandbox, spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sb.url}/__sandbox/tee/corruptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(res.status).toBe(201);
}

export async function clearCorruptions(sb: Sandbox): Promise<void> {
  await fetch(`${sb.url}/__sandbox/tee/corruptions`, { method: 'DELETE' });
}

export async function setOptions(sb: Sandbox, options: Record<string, unknown>): Promise<Response> {
  return fetch(`${sb.url}/__sandbox/tee/options`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
}
