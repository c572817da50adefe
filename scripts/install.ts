/**
 * One-click installs, all made from one stdio config (`npm run generate` writes them): the
 * README's VS Code and Cursor links and `code --add-mcp` line, and the Claude Code plugin
 * (.claude-plugin/plugin.json: this server and the skills in skills/).
 */
import pkg from '../package.json' with { type: 'json' };
import { PLATFORM_WORD } from '../src/word.js';

/** The server as every client starts it once the package is on npm. */
export const INSTALL = { name: PLATFORM_WORD, command: 'npx', args: ['-y', pkg.name] } as const;

const stdio = { command: INSTALL.command, args: [...INSTALL.args] };

/** VS Code's install URI: `vscode:mcp/install?` and the URL-encoded JSON of the named server. */
export const vscodeUri = () => `vscode:mcp/install?${encodeURIComponent(JSON.stringify(INSTALL))}`;
/** GitHub shows only https links: VS Code's redirect opens the `vscode:` URI. */
export const vscodeWebLink = () =>
  `https://insiders.vscode.dev/redirect?url=${encodeURIComponent(vscodeUri())}`;
export const vscodeCli = () => `code --add-mcp '${JSON.stringify(INSTALL)}'`;
/** Cursor's deeplink: the name, and the base64 JSON of the server's config. */
const cursorQuery = () =>
  `name=${encodeURIComponent(INSTALL.name)}&config=${encodeURIComponent(Buffer.from(JSON.stringify(stdio)).toString('base64'))}`;
export const cursorUri = () => `cursor://anysphere.cursor-deeplink/mcp/install?${cursorQuery()}`;
export const cursorWebLink = () => `https://cursor.com/en/install-mcp?${cursorQuery()}`;

export function installBlock(): string {
  return [
    `[Install in VS Code](${vscodeWebLink()}) · [Install in Cursor](${cursorWebLink()}) · Claude Code: this repository is a plugin (\`.claude-plugin/plugin.json\`: the server, and the skills in \`skills/\`); try it with \`claude --plugin-dir <checkout>\``,
    '',
    '```sh',
    vscodeCli(),
    '```',
    '',
    `The links open \`${vscodeUri()}\` and \`${cursorUri()}\`.`,
  ].join('\n');
}

/** The Claude Code plugin manifest: this server under its name; Claude Code finds the skills in skills/ itself. */
export function pluginManifest() {
  return {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    keywords: ['mcp', 'ai', 'models', 'images', 'video', 'speech', 'search', 'x402'],
    mcpServers: { [INSTALL.name]: stdio },
  };
}
