import type { Server } from '@modelcontextprotocol/server';
import type { RootsSource } from '../files/files.js';
import { rootPath } from '../files/root-paths.js';

/**
 * The client's MCP roots as local folders, asked once and asked again after
 * `notifications/roots/list_changed`; undefined when the client does not offer roots.
 */
export function clientRoots(server: Server): RootsSource {
  let cached: Promise<string[] | undefined> | undefined;
  server.setNotificationHandler('notifications/roots/list_changed', async () => {
    cached = undefined;
  });
  return () => {
    if (!server.getClientCapabilities()?.roots) return Promise.resolve(undefined);
    cached ??= server
      .listRoots(undefined, { timeout: 5_000 })
      .then(({ roots }) =>
        roots.map((root) => rootPath(root.uri)).filter((path): path is string => path !== undefined),
      )
      .catch(() => {
        cached = undefined;
        return undefined;
      });
    return cached;
  };
}
