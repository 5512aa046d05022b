import { pino, type Logger as PinoLogger } from 'pino';
import pinoPretty from 'pino-pretty';

/**
 * The structured logger of every process: pino, one JSON line per entry on stdout (`time`, `level`, `name`,
 * `msg`, then the fields); human-readable (pino-pretty) when stdout is a terminal.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  name: string;
  level?: LogLevel;
  fields?: Record<string, unknown>;
  /** Where the lines go (default stdout; pretty when it is a TTY). Tests pass a stream to read them. */
  destination?: NodeJS.WritableStream;
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const destination =
    options.destination ??
    (pretty
      ? pinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : pino.destination({ dest: 1, sync: true }));
  const base = pino(
    {
      level: options.level ?? 'info',
      base: { name: options.name, ...options.fields },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return wrap(base);
}

function wrap(logger: PinoLogger): Logger {
  // An entry below the level is dropped before its fields are copied (the access line is `info`, one a request).
  const at =
    (level: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (logger.isLevelEnabled(level)) logger[level](serialize(fields), message);
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => wrap(logger.child(fields)),
  };
}

/** Errors anywhere in the fields become `{name, message, stack}` (pino does that for `err` only). */
function serialize(fields: Record<string, unknown> | undefined) {
  if (!fields) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
