/** A small structured logger: one JSON line per entry on stdout (stderr for errors). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(options: {
  name: string;
  level?: LogLevel;
  fields?: Record<string, unknown>;
}): Logger {
  const threshold = rank[options.level ?? 'info'];
  const base = { name: options.name, ...options.fields };
  const write = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (rank[level] < threshold) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      ...base,
      msg: message,
      ...serialize(fields),
    });
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...options, fields: { ...options.fields, ...fields } }),
  };
}

function serialize(fields: Record<string, unknown> | undefined) {
  if (!fields) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
