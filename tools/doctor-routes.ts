import { z } from 'zod';
import type { Drift, FreeRoute } from '../src/doctor/types.js';
import { usableList } from '../src/replies/usable-list.js';
import { isEnclaveModel, newNonce } from '../src/tee/index.js';
import { Retention } from './account/settings-replies.js';
import { KeyUsage, ManagementUsage } from './account/usage.js';
import { DataEntry, RawCatalog as RawDataCatalog } from './data/shared.js';
import { KeyRecord, RawKeyList } from './keys/shared.js';
import { Catalog, catalogPath, MODEL_KINDS, ModelRecord, providersPath } from './models/shared.js';
import { routePath, Reply as X402Catalog, Route as X402Route } from './payments/catalog.js';
import { TeamItem } from './teams/shared.js';
import { AttestationReply } from './verify/attest.js';

/**
 * The free routes `orbit-mcp doctor` reads, each with the schema its tool reads it with (issue 25).
 * Only GETs of catalogs, details, usage, listings and an attestation: none is ever charged.
 */

const ids = (data: unknown): string[] =>
  (data as { data?: Array<{ id?: unknown }> }).data?.flatMap((m) =>
    typeof m.id === 'string' ? [m.id] : [],
  ) ?? [];

/** A model's details, and an enclave model's attestation with a fresh nonce, learned from the text catalog. */
function fromTextCatalog(data: unknown): FreeRoute[] {
  const models = ids(data);
  const routes: FreeRoute[] = [];
  const first = models.find((id) => !isEnclaveModel(id));
  if (first) {
    routes.push({
      name: `model details (${first})`,
      path: providersPath(first),
      credential: 'optional',
      schema: z.unknown(),
    });
  }
  const enclave = models.find(isEnclaveModel);
  if (enclave) {
    const nonce = newNonce();
    routes.push({
      name: `attestation (${enclave})`,
      path: '/api/v1/tee/attestation',
      query: { model: enclave, nonce },
      credential: 'optional',
      schema: AttestationReply,
      inspect: (reply) => nonceEcho(reply, nonce),
    });
  }
  return routes;
}

function nonceEcho(reply: unknown, nonce: string): Drift[] {
  const r = reply as { nonce?: string; request_nonce?: string };
  const echoed = r.nonce ?? r.request_nonce;
  return echoed?.toLowerCase() === nonce
    ? []
    : [
        {
          field: 'nonce',
          expected: 'the nonce sent',
          got: echoed === undefined ? 'nothing' : 'another value',
        },
      ];
}

/**
 * The elements of a list its tool reads one by one and would leave out, as drift: the route
 * answers, but not every element can be used (the tool names them and goes on with the rest).
 */
function leftOut<T>(
  list: (data: unknown) => unknown,
  element: z.ZodType<T>,
  options: {
    field: string;
    expected: string;
    nameKeys: readonly string[];
    usable?: (item: T) => string | undefined;
  },
): (data: unknown) => Drift[] {
  return (data) =>
    usableList(element, list(data), { nameKeys: options.nameKeys, usable: options.usable }).left_out.map(
      (item) => ({
        field: `${options.field}[${item.name}]`,
        expected: options.expected,
        got: item.reason,
        tolerated: true,
      }),
    );
}

const modelsLeftOut = leftOut((data) => (data as { data: unknown }).data, ModelRecord, {
  field: 'data',
  expected: 'a model record with an id',
  nameKeys: ['id', 'name'],
});

export const FREE_ROUTES: readonly FreeRoute[] = [
  {
    name: 'models (text, detailed)',
    path: catalogPath('text'),
    query: { detailed: 'true' },
    credential: 'optional',
    schema: Catalog,
    inspect: modelsLeftOut,
    follow: fromTextCatalog,
  },
  ...MODEL_KINDS.filter((kind) => kind !== 'text').map(
    (kind): FreeRoute => ({
      name: `models (${kind})`,
      path: catalogPath(kind),
      credential: 'optional',
      schema: Catalog,
      inspect: modelsLeftOut,
    }),
  ),
  {
    name: 'models (subscription)',
    path: catalogPath('text', 'subscription'),
    credential: 'optional',
    schema: Catalog,
    inspect: modelsLeftOut,
  },
  {
    name: 'data endpoints',
    path: '/api/v1/data/endpoints',
    credential: 'optional',
    schema: RawDataCatalog,
    inspect: leftOut((data) => (data as { data: unknown }).data, DataEntry, {
      field: 'data',
      expected: 'an endpoint record (id, category, methods, endpoint)',
      nameKeys: ['id', 'name'],
    }),
  },
  {
    name: 'x402 endpoints',
    path: '/api/v1/x402/endpoints',
    credential: 'optional',
    schema: X402Catalog,
    // x402_endpoints reads each route on its own, a list or one under `data`.
    inspect: leftOut((data) => (Array.isArray(data) ? data : (data as { data: unknown }).data), X402Route, {
      field: 'data',
      expected: 'a route record',
      nameKeys: ['endpoint', 'path', 'url'],
      usable: (route) => (routePath(route) ? undefined : 'names no route'),
    }),
  },
  { name: 'usage (API key)', path: '/api/subscription/v1/usage', credential: 'api_key', schema: KeyUsage },
  {
    name: 'usage (management)',
    path: '/api/management/v1/subscription/usage',
    credential: 'management_token',
    schema: ManagementUsage,
  },
  {
    name: 'API keys',
    path: '/api/management/v1/api-keys',
    credential: 'management_token',
    // api_keys_read reads each key on its own (the reply's list, found under `data` or bare).
    schema: RawKeyList,
    inspect: leftOut((keys) => keys, KeyRecord, {
      field: 'data',
      expected: 'a key record with an id',
      nameKeys: ['id', 'name'],
    }),
  },
  {
    name: 'retention setting',
    path: '/api/user/responses-retention',
    credential: 'session',
    schema: Retention,
  },
  {
    name: 'teams',
    path: '/api/teams',
    credential: 'session',
    schema: z.looseObject({ teams: z.array(TeamItem) }),
  },
];
