/**
 * Logs go to stderr only (stdout belongs to the protocol in stdio mode), and every known
 * secret value is replaced before a line is written.
 */
export type LogLevel = 'debug' | 'info' | 'warning' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warning: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const secrets = new Set<string>();
const SECRET_PATTERNS = [/\b(sk|ok|mt|orbit)-[A-Za-z0-9_-]{8,}/g, /(Bearer\s+)[^\s"']+/gi];

/** Registers a value that must never appear in output. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 6) return;
  secrets.add(value);
  // Data is logged as JSON, where quotes and backslashes in a secret appear escaped.
  secrets.add(JSON.stringify(value).slice(1, -1));
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  for (const pattern of SECRET_PATTERNS)
    out = out.replace(
      pattern,
      (_m, prefix) => `${typeof prefix === 'string' && prefix.startsWith('Bearer') ? prefix : ''}[redacted]`,
    );
  return out;
}

export type LogSink = (level: Exclude<LogLevel, 'silent'>, line: string) => void;

const stderrSink: LogSink = (level, line) => {
  process.stderr.write(`[orbit-mcp] ${level}: ${line}\n`);
};

export function createLogger(level: LogLevel, sinks: LogSink[] = [stderrSink]): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    const line = redact(data ? `${message} ${JSON.stringify(data)}` : message);
    for (const sink of sinks) sink(at, line);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warning: (m, d) => write('warning', m, d),
    error: (m, d) => write('error', m, d),
  };
}
