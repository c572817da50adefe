import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SERVER_SCHEMA_URL, serverJsonFor } from '../../scripts/server-json.js';

const SCHEMA_FILE = 'schemas/mcp-registry/server.schema.2025-12-11.json';
/** The published file's hash (schemas/mcp-registry/README.md): a changed copy is caught here. */
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';

const schemaBytes = readFileSync(SCHEMA_FILE);
const serverJson = JSON.parse(readFileSync('server.json', 'utf8'));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

function validate(document: unknown) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The schema's only format; WHATWG URL parsing stands in for ajv-formats, whose name in package.json
  // would land in the bundle (binary.test.ts keeps ajv-formats out of it).
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  const check = ajv.compile(JSON.parse(schemaBytes.toString('utf8')));
  check(document);
  return check.errors ?? [];
}

describe('server.json (MCP Registry)', () => {
  it('is the vendored schema byte for byte', () => {
    expect(createHash('sha256').update(schemaBytes).digest('hex')).toBe(SCHEMA_SHA256);
    expect(JSON.parse(schemaBytes.toString('utf8')).$id).toBe(SERVER_SCHEMA_URL);
  });

  it('validates against the registry schema 2025-12-11', () => {
    expect(serverJson.$schema).toBe(SERVER_SCHEMA_URL);
    expect(validate(serverJson)).toEqual([]);
  });

  it('the schema check can fail: a long description and a missing transport are refused', () => {
    const broken = structuredClone(serverJson);
    broken.description = 'x'.repeat(101);
    delete broken.packages[0].transport;
    const errors = validate(broken).map((error) => error.instancePath);
    expect(errors).toContain('/description');
    expect(errors).toContain('/packages/0');
  });

  it('is what npm run generate writes, so version and name follow package.json', () => {
    expect(serverJson).toEqual(JSON.parse(JSON.stringify(serverJsonFor())));
    expect(serverJson.name).toBe(pkg.mcpName);
    expect(serverJson.version).toBe(pkg.version);
    for (const entry of serverJson.packages) {
      expect(entry).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    }
  });

  it('describes stdio with its environment (the key a secret) and --http with its Authorization header', () => {
    const [stdio, http] = serverJson.packages;
    expect(stdio.transport).toEqual({ type: 'stdio' });
    const variables = Object.fromEntries(
      stdio.environmentVariables.map((variable: { name: string }) => [variable.name, variable]),
    );
    expect(Object.keys(variables).sort()).toEqual([
      'ORBIT_API_KEY',
      'ORBIT_BASE_URL',
      'ORBIT_OUTPUT_DIR',
      'ORBIT_READ_ONLY',
      'ORBIT_TOOLSETS',
    ]);
    expect(variables.ORBIT_API_KEY.isSecret).toBe(true);
    expect(http.packageArguments[0]).toEqual({ type: 'positional', value: '--http' });
    expect(http.transport.type).toBe('streamable-http');
    expect(http.transport.headers).toEqual([
      expect.objectContaining({ name: 'Authorization', isSecret: true }),
    ]);
    expect(http.environmentVariables.map((variable: { name: string }) => variable.name)).not.toContain(
      'ORBIT_API_KEY',
    );
  });

  it('names its owner with a placeholder the publisher replaces (docs/registry.md)', () => {
    expect(pkg.mcpName).toMatch(/^io\.github\.[A-Za-z0-9-]+\/orbit-mcp$/);
    expect(readFileSync('docs/registry.md', 'utf8')).toContain(pkg.mcpName);
  });

  it('ships in the npm tarball', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }),
    );
    const paths = packed.files.map((file: { path: string }) => file.path);
    expect(paths).toContain('server.json');
    expect(paths).toContain('package.json');
  });
});
