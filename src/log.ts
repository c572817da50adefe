import { createRedactor, type Redactor } from './secrets.js';

export { redact, registerSecret } from './secrets.js';

/**
 * Logs go to stderr only (stdout belongs to the protocol in stdio mode), and every known
 * secret value is replaced before a line is written.
 */
export type LogLevel = 'debug' | 'info' | 'warning' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warning: 30, error: 40, silent: 100 };

/** Whether a logger at `level` writes lines of level `at`. */
export function logsAt(level: LogLevel, at: Exclude<LogLevel, 'silent'>): boolean {
  return RANK[at] >= RANK[level];
}

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export type LogSink = (level: Exclude<LogLevel, 'silent'>, line: string) => void;

const stderrSink: LogSink = (level, line) => {
  process.stderr.write(`[orbit-mcp] ${level}: ${line}\n`);
};

export function createLogger(
  level: LogLevel,
  sinks: LogSink[] = [stderrSink],
  redactor: Redactor = createRedactor(),
): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    const line = redactor.text(data ? `${message} ${JSON.stringify(data)}` : message);
    for (const sink of sinks) sink(at, line);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warning: (m, d) => write('warning', m, d),
    error: (m, d) => write('error', m, d),
  };
}
