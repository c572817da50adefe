/**
 * Runs a function of the shipped code on a hostile input in a process of its own, so a
 * backtracking regex that would stall for minutes blocks only that process: the test awaits it,
 * and a run past the deadline is killed and fails the test (a linear one returns in milliseconds).
 * Tests assert on the value returned, never on how long it took.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `body` is the body of an async function given `load(path)` (a module by its path in the
 * repository) and returns something JSON can carry, for example
 * `const { f } = await load('src/x.ts'); return f('a'.repeat(1_000_000));`.
 */
export function runIsolated<T>(body: string, deadlineMs = 25_000): Promise<T> {
  const script = `
    const load = (path) => import(${JSON.stringify(`${REPO}/`)} + path);
    const run = async () => { ${body} };
    run().then((value) => process.stdout.write(JSON.stringify({ value: value ?? null })));
  `;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: REPO, timeout: deadlineMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const why = error.killed
            ? `still running after ${deadlineMs} ms (killed)`
            : stderr || error.message;
          reject(new Error(`isolated run failed: ${why}`));
          return;
        }
        resolve((JSON.parse(stdout) as { value: T }).value);
      },
    );
  });
}
