/**
 * The layering of the shipped code, checked on its import graph (scripts/lib/import-graph.ts;
 * `npm run graph` prints it). Each rule keeps a part replaceable or cheap to start.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  areaOf,
  EXCUSED_ROOM_IMPORTS,
  type ImportEdge,
  importCycles,
  importGraph,
  lazyImports,
  roomCycles,
  roomEdges,
} from '../../scripts/lib/import-graph.js';

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

  it('has no import cycle, lazy imports included', () => {
    expect(importCycles(edges).map((cycle) => cycle.join(' > '))).toEqual([]);
  });

  it('has no cycle between rooms, through any import (type-only and lazy ones too): types sit at the bottom', () => {
    expect(roomCycles(edges)).toEqual([]);
  });

  it('excuses only imports against the layers that still occur (the list only shrinks)', () => {
    const occurring = roomEdges(edges);
    expect([...EXCUSED_ROOM_IMPORTS.keys()].filter((excuse) => !occurring.has(excuse))).toEqual([]);
  });

  it('finds a cycle between rooms round a loop, through a type import or a lazy one', () => {
    const edge = (from: string, to: string, lazy = false): ImportEdge => ({ from, to, lazy });
    const loop = [
      edge('src/errors.ts', 'src/jobs/next.ts'),
      edge('src/jobs/wait.ts', 'src/context.ts'),
      edge('src/context.ts', 'src/errors.ts', true),
      edge('src/jobs/wait.ts', 'src/jobs/next.ts'),
    ];
    expect(roomCycles(loop)).toEqual([
      {
        rooms: ['src/context', 'src/errors', 'src/jobs'],
        imports: [
          'src/errors.ts -> src/jobs/next.ts',
          'src/jobs/wait.ts -> src/context.ts',
          'src/context.ts -> src/errors.ts',
        ],
      },
    ]);
    expect(roomCycles(loop.slice(0, 2))).toEqual([]);
    expect(
      importCycles([
        edge('src/otel/index.ts', 'src/otel/tracer.ts', true),
        edge('src/otel/tracer.ts', 'src/otel/index.ts'),
      ]),
    ).toHaveLength(1);
  });

  it('counts lazy imports: each is a choice of what loads on first use, so a new one is a change made on purpose', () => {
    const lazy = lazyImports();
    const registry = lazy.filter((l) => l.from === 'tools/index.ts');
    expect(registry).toHaveLength(toolFiles.size);
    expect(lazy.filter((l) => l.from !== 'tools/index.ts').map((l) => `${l.from} -> ${l.specifier}`)).toEqual(
      [
        'src/auth/desktop.ts -> open', // the browser opener, only when a sign-in opens a page
        'src/auth/sign-in.ts -> ./shortcut.js', // the shortcut flow, only when signing in
        'src/cli.ts -> ./sandbox/index.js', // `orbit-mcp sandbox`, the emulator alone
        'src/cli.ts -> ./auth/cli.js', // the account commands
        'src/cli.ts -> ./doctor/command.js', // `doctor`
        'src/cli.ts -> ../tools/doctor-routes.js', // `doctor`'s routes
        'src/cli.ts -> ./mcp/http/endpoint/serve.js', // --http
        'src/main.ts -> env-paths', // the entry imports only Node's own modules statically:
        'src/main.ts -> ./cli.js', // a lone copy of the bundle then says what is missing
        'src/otel/index.ts -> ./tracer.js', // the OpenTelemetry SDK, only with tracing on
        'src/runtime.ts -> ./sandbox/index.js', // --sandbox, in process
        'src/store/open.ts -> ./redis.js', // ioredis, only with --store
        'src/upstream/client.ts -> undici', // on the first platform call, not at start-up
      ],
    );
    expect(lazy).toHaveLength(toolFiles.size + 13);
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
    expect(list(found)).toEqual([]);
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
