/**
 * Starts `orbit-mcp --http --port 0 …` (or any server that prints "listening at <url>/mcp" on
 * stderr) as a child process, and stops it. Shared by the binary tests, the conformance run and
 * the throughput benchmark.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface StartedServer {
  url: string;
  child: ChildProcess;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** The child's working folder (defaults to ours). */
  cwd?: string;
  /** Copy the server's stderr to ours (CI logs). */
  echoStderr?: boolean;
  timeoutMs?: number;
}

export async function startHttpServer(args: string[], options: StartOptions = {}): Promise<StartedServer> {
  const child = spawn(process.execPath, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    const limit = options.timeoutMs ?? 20_000;
    const timer = setTimeout(
      () => reject(new Error(`no "listening at" line in ${limit} ms:\n${seen}`)),
      limit,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${seen}`));
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.echoStderr) process.stderr.write(chunk);
      seen = (seen + chunk).slice(-4000);
      const match = /listening at (http:\/\/\S+\/mcp)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { url, child };
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
