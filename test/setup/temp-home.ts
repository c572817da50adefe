/**
 * The suite writes only to temporary folders (issue 33 item 7). Before any test file runs, HOME
 * (and the XDG folders, and USERPROFILE for Windows) point at a fresh temporary home and
 * ORBIT_OUTPUT_DIR at a folder in it: the workers inherit that environment, and so does every
 * server a test starts (in-process, or a child given `process.env`), so a server started without
 * an output folder saves its media there, never in the person's ~/orbit-output.
 *
 * After the run, the places orbit-mcp writes to in the real home (~/orbit-output and its
 * per-user config, cache and data folders) and the real home's own entries are listed again:
 * anything new fails the run and is named.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import envPaths from 'env-paths';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tempHome: string;
    realHome: string;
  }
}

/** Every path under `root` (depth-limited), or nothing when it does not exist. */
function listing(root: string, depth = 4): string[] {
  let entries: string[];
  try {
    if (!statSync(root).isDirectory()) return [root];
    entries = readdirSync(root);
  } catch {
    return [];
  }
  return [
    root,
    ...entries.flatMap((name) => (depth > 0 ? listing(join(root, name), depth - 1) : [join(root, name)])),
  ];
}

/** The real home's own entries, and everything in the folders orbit-mcp writes to there. */
function snapshot(realHome: string, folders: readonly string[]): Set<string> {
  let top: string[] = [];
  try {
    top = readdirSync(realHome).map((name) => join(realHome, name));
  } catch {}
  return new Set([...top, ...folders.flatMap((folder) => listing(folder))]);
}

export default function setup(project: TestProject) {
  const realHome = homedir();
  const paths = envPaths('orbit-mcp', { suffix: '' });
  const folders = [join(realHome, 'orbit-output'), paths.config, paths.cache, paths.data, paths.log].filter(
    (folder) => !relative(realHome, folder).startsWith('..'),
  );
  const before = snapshot(realHome, folders);

  const tempHome = mkdtempSync(join(tmpdir(), 'orbit-test-home-'));
  Object.assign(process.env, {
    HOME: tempHome,
    USERPROFILE: tempHome,
    XDG_CONFIG_HOME: join(tempHome, '.config'),
    XDG_CACHE_HOME: join(tempHome, '.cache'),
    XDG_DATA_HOME: join(tempHome, '.local', 'share'),
    XDG_STATE_HOME: join(tempHome, '.local', 'state'),
    ORBIT_OUTPUT_DIR: join(tempHome, 'orbit-output'),
  });
  project.provide('tempHome', tempHome);
  project.provide('realHome', realHome);

  return () => {
    const added = [...snapshot(realHome, folders)].filter((path) => !before.has(path));
    rmSync(tempHome, { recursive: true, force: true });
    if (added.length > 0) {
      process.stderr.write(
        `\nThe tests wrote into the real home folder (${realHome}), where they must not:\n  ${added.join('\n  ')}\nStart servers with the environment the suite sets (HOME, ORBIT_OUTPUT_DIR), or a temporary --output-dir.\n`,
      );
      process.exitCode = 1;
    }
  };
}
