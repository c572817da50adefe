import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  platformSecretsDir,
  secretFingerprint,
  secretsDir,
  writeSecretFile,
} from '../../src/auth/secret-file.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempConfig = () => {
  const dir = mkdtempSync(join(tmpdir(), 'orbit-secret-'));
  made.push(dir);
  return dir;
};

describe('writeSecretFile', () => {
  it('writes the secret alone to a 0600 file in a 0700 folder under the config folder', () => {
    const dir = secretsDir(tempConfig());
    const path = writeSecretFile('key_000123', 'sk-secret-value', dir);
    expect(path).toBe(join(dir, 'key_000123.key'));
    expect(readFileSync(path, 'utf8')).toBe('sk-secret-value\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('replaces a file of the same name atomically and leaves no temp file', () => {
    const dir = secretsDir(tempConfig());
    writeSecretFile('k1', 'first', dir);
    writeSecretFile('k1', 'second', dir);
    expect(readdirSync(dir)).toEqual(['k1.key']);
    expect(readFileSync(join(dir, 'k1.key'), 'utf8')).toBe('second\n');
  });

  it('refuses a name that could leave the folder', () => {
    const dir = secretsDir(tempConfig());
    for (const name of ['../x', '.hidden', 'a/b', '']) {
      expect(() => writeSecretFile(name, 's', dir)).toThrow(/safe file name/);
    }
  });

  it("keeps each platform's secrets in a folder named by its host and port", () => {
    const config = tempConfig();
    expect(platformSecretsDir('https://api.example.com/v1', config)).toBe(
      join(config, 'api-keys', 'api.example.com'),
    );
    expect(platformSecretsDir('http://127.0.0.1:8788', config)).toBe(
      join(config, 'api-keys', '127.0.0.1_8788'),
    );
  });

  it('fingerprints a secret without revealing it', () => {
    const print = secretFingerprint('sk-secret-value');
    expect(print).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(print).not.toContain('secret');
    expect(secretFingerprint('sk-secret-value')).toBe(print);
  });
});
