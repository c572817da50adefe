#!/usr/bin/env node
// Sits between an MCP client and a stdio server and copies every line the client sends to a log
// file, so the suite can tell which protocol revision went over the wire. Everything else passes
// through untouched. Usage: node stdio-tap.mjs <log file> -- <command> [args...]
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, separator, command, ...args] = process.argv.slice(2);
if (!log || separator !== '--' || !command) {
  process.stderr.write('usage: stdio-tap.mjs <log file> -- <command> [args...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  if (lines.length) appendFileSync(log, `${lines.join('\n')}\n`);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdin.on('error', () => {});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
