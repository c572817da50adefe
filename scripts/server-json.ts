/**
 * The MCP Registry entry (`server.json`, schema 2025-12-11), generated from package.json so its name,
 * version and description never drift from what npm ships. Publishing: docs/registry.md.
 */
import pkg from '../package.json' with { type: 'json' };
import { ENV_PREFIX } from '../src/word.js';

export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The registry allows 100 characters; package.json's description lists every area and is longer. */
const DESCRIPTION =
  'Chat with any model, search, media, data and x402 pay-per-call on Orbit; offline sandbox.';

/** What both ways of running the npm package read from the environment. */
const environmentVariables = [
  {
    name: `${ENV_PREFIX}BASE_URL`,
    description: 'The platform address, for example https://api.example.com.',
    isRequired: true,
    format: 'string',
  },
  {
    name: `${ENV_PREFIX}API_KEY`,
    description: 'Your platform API key. Leave it unset to sign in through the browser on first use.',
    isSecret: true,
    format: 'string',
  },
  {
    name: `${ENV_PREFIX}TOOLSETS`,
    description: 'Comma-separated toolsets to enable, or "all" (default: the everyday ones).',
    format: 'string',
  },
  {
    name: `${ENV_PREFIX}READ_ONLY`,
    description: 'Hide every tool that writes or spends.',
    format: 'boolean',
    default: 'false',
  },
  {
    name: `${ENV_PREFIX}OUTPUT_DIR`,
    description: 'The folder where generated images, audio and video are saved.',
    format: 'filepath',
  },
];

export function serverJsonFor() {
  const npm = { registryType: 'npm', identifier: pkg.name, version: pkg.version, runtimeHint: 'npx' };
  return {
    $schema: SERVER_SCHEMA_URL,
    name: pkg.mcpName,
    title: 'Orbit',
    description: DESCRIPTION,
    version: pkg.version,
    packages: [
      { ...npm, transport: { type: 'stdio' }, environmentVariables },
      {
        ...npm,
        // The same package serving Streamable HTTP: each client sends its own key as a header.
        packageArguments: [
          { type: 'positional', value: '--http' },
          {
            type: 'named',
            name: '--port',
            valueHint: 'port',
            description: 'The HTTP port to listen on.',
            format: 'number',
            default: '8787',
          },
        ],
        transport: {
          type: 'streamable-http',
          url: 'http://127.0.0.1:{port}/mcp',
          headers: [
            {
              name: 'Authorization',
              description: 'Bearer followed by your platform API key (or sign in with OAuth instead).',
              value: 'Bearer {api_key}',
              isSecret: true,
              variables: {
                api_key: { description: 'Your platform API key.', isSecret: true, isRequired: true },
              },
            },
          ],
        },
        environmentVariables: environmentVariables.filter((variable) => !variable.isSecret),
      },
    ],
  };
}
