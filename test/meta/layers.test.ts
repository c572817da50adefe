/**
 * The layering of the shipped code, checked on its import graph (scripts/lib/import-graph.ts;
 * `npm run graph` prints it). Each rule keeps a part replaceable or cheap to start.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { areaOf, importCycles, importGraph } from '../../scripts/lib/import-graph.js';

const edges = importGraph();
const registry = readFileSync('tools/index.ts', 'utf8');
const toolFiles = new Set(
  [...registry.matchAll(/import\('\.\/([a-z_]+\/[a-z_0-9]+)\.js'\)/g)].map((m) => `tools/${m[1]}.ts`),
);
const list = (found: { from: string; to: string }[]) => found.map((e) => `${e.from} -> ${e.to}`);

describe('layers', () => {
  it('reads the whole graph (the rules below cannot pass on an empty one)', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(toolFiles.size).toBeGreaterThan(30);
  });

  it('has no import cycle', () => {
    expect(importCycles(edges).map((cycle) => cycle.join(' > '))).toEqual([]);
  });

  it('keeps shared machinery free of tools, resources and prompts (only the entry points wire them in)', () => {
    const entries = new Set(['src/cli.ts', 'src/index.ts']);
    const found = edges.filter(
      (e) => e.from.startsWith('src/') && !entries.has(e.from) && /^(tools|resources|prompts)\//.test(e.to),
    );
    expect(list(found)).toEqual([]);
  });

  it('keeps the platform side (upstream, files, jobs, auth, tee, payments, sandbox) free of the MCP layer', () => {
    const mcpUsers = new Set(['src/cli.ts', 'src/index.ts']);
    const found = edges.filter(
      (e) =>
        e.to.startsWith('src/mcp/') &&
        e.from.startsWith('src/') &&
        !e.from.startsWith('src/mcp/') &&
        !mcpUsers.has(e.from),
    );
    expect(list(found)).toEqual([]);
  });

  it('lets only the entry points reach the inbound HTTP endpoint (src/mcp/http)', () => {
    const entries = new Set(['src/cli.ts', 'src/index.ts']);
    const found = edges.filter(
      (e) => e.to.startsWith('src/mcp/http/') && !e.from.startsWith('src/mcp/http/') && !entries.has(e.from),
    );
    expect(list(found)).toEqual([]);
  });

  it('keeps the HTTP endpoint in four rooms, and only the 2025 sessions reach the replicas (cluster)', () => {
    const rooms = new Set(['endpoint', 'auth', 'sessions', 'cluster']);
    const outside = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter(
      (path) => path.startsWith('src/mcp/http/') && !rooms.has(path.split('/')[3] ?? ''),
    );
    expect(outside).toEqual([]);
    const found = edges.filter(
      (e) =>
        e.to.startsWith('src/mcp/http/cluster/') &&
        !e.from.startsWith('src/mcp/http/cluster/') &&
        !e.from.startsWith('src/mcp/http/sessions/'),
    );
    expect(list(found)).toEqual([]);
  });

  it('reads request credentials only in src/mcp/http/auth (the endpoint, sessions and replicas get them from there)', () => {
    const http = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter(
      (path) => path.startsWith('src/mcp/http/') && !path.startsWith('src/mcp/http/auth/'),
    );
    const reading =
      /'authorization'|'x-api-key'|MANAGEMENT_TOKEN_HEADER|SESSION_HEADER|requestCredential|requestExtras/;
    expect(http.length).toBeGreaterThan(20);
    expect(http.filter((path) => reading.test(readFileSync(path, 'utf8')))).toEqual([]);
    const found = edges.filter(
      (e) => e.from.startsWith('src/mcp/http/auth/') && e.to.startsWith('src/mcp/http/endpoint/'),
    );
    expect(list(found).filter((edge) => !edge.endsWith('endpoint/refuse.ts'))).toEqual([]);
  });

  it('keeps the sandbox apart: it imports only itself and src/word.ts; others reach it only through its index, lazily', () => {
    const out = edges.filter(
      (e) => e.from.startsWith('src/sandbox/') && !e.to.startsWith('src/sandbox/') && e.to !== 'src/word.ts',
    );
    expect(list(out)).toEqual([]);
    const into = edges.filter(
      (e) =>
        !e.from.startsWith('src/sandbox/') &&
        e.to.startsWith('src/sandbox/') &&
        !(e.to === 'src/sandbox/index.ts' && e.lazy),
    );
    expect(list(into)).toEqual([]);
  });

  it('loads each tool on first use: only the registry imports a tool file, and lazily', () => {
    const found = edges.filter((e) => toolFiles.has(e.to) && !(e.from === 'tools/index.ts' && e.lazy));
    expect(list(found)).toEqual([]);
  });

  it('names areas the way the graph report does', () => {
    expect(areaOf('src/mcp/server.ts')).toBe('src/mcp');
    expect(areaOf('src/mcp/http/sessions/handler.ts')).toBe('src/mcp/http/sessions');
    expect(areaOf('src/errors.ts')).toBe('src/errors');
    expect(areaOf('tools/text/chat.ts')).toBe('tools/text');
    expect(areaOf('resources/usage.ts')).toBe('resources');
  });
});
