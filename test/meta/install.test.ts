/**
 * One-click installs: the README's VS Code and Cursor links and `code --add-mcp` line decode to
 * the one install config, and the Claude Code plugin manifest holds to the plugin format (a schema
 * check: `claude plugin validate` needs the Claude Code CLI, which CI does not have offline).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replaceBlock } from '../../scripts/docs.js';
import { INSTALL, installBlock, pluginManifest } from '../../scripts/install.js';

const readme = readFileSync('README.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const links = [...readme.matchAll(/\]\((https:\/\/[^)]+)\)/g)].map((match) => match[1]!);

describe('install links', () => {
  it('are what npm run generate writes', () => {
    expect(replaceBlock(readme, 'install', installBlock())).toBe(readme);
  });

  it('open VS Code on the server npx starts from the published package', () => {
    const web = new URL(links.find((link) => link.startsWith('https://insiders.vscode.dev/redirect'))!);
    const uri = web.searchParams.get('url')!;
    expect(uri.startsWith('vscode:mcp/install?')).toBe(true);
    const config = JSON.parse(decodeURIComponent(uri.slice('vscode:mcp/install?'.length)));
    expect(config).toEqual({ name: 'orbit', command: 'npx', args: ['-y', pkg.name] });
    expect(readme).toContain(`\`${uri}\``);
    const cli = /code --add-mcp '(.+)'/.exec(readme)![1]!;
    expect(JSON.parse(cli)).toEqual(config);
  });

  it('open Cursor on the same server, its config in base64', () => {
    for (const link of [
      links.find((entry) => entry.startsWith('https://cursor.com/en/install-mcp?'))!,
      /`(cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?[^`]+)`/.exec(readme)![1]!,
    ]) {
      const query = new URL(link).searchParams;
      expect(query.get('name')).toBe(INSTALL.name);
      const config = JSON.parse(Buffer.from(query.get('config')!, 'base64').toString('utf8'));
      expect(config).toEqual({ command: 'npx', args: ['-y', pkg.name] });
    }
  });
});

/** The plugin manifest's documented fields (Claude Code plugins reference); unknown ones are refused. */
const Plugin = z.strictObject({
  name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  version: z.string().regex(/^\d+\.\d+\.\d+/),
  description: z.string().min(1),
  license: z.string(),
  keywords: z.array(z.string()),
  mcpServers: z.record(z.string(), z.strictObject({ command: z.string(), args: z.array(z.string()) })),
});

describe('the Claude Code plugin', () => {
  const manifest = JSON.parse(readFileSync('.claude-plugin/plugin.json', 'utf8'));

  it('is what npm run generate writes, in the plugin format, with the package version', () => {
    expect(manifest).toEqual(pluginManifest());
    expect(Plugin.parse(manifest)).toEqual(manifest);
    expect(manifest.version).toBe(pkg.version);
  });

  it('starts the same server as the install links', () => {
    expect(manifest.mcpServers).toEqual({ [INSTALL.name]: { command: INSTALL.command, args: INSTALL.args } });
  });

  it('carries the skills where plugins keep them: skills/<name>/SKILL.md at its root', () => {
    for (const name of ['narrated-clip', 'compare-models', 'pay-a-quote', 'eval-worst-items', 'long-video'])
      expect(existsSync(`skills/${name}/SKILL.md`), name).toBe(true);
    expect(existsSync('.claude-plugin/skills')).toBe(false);
  });
});
