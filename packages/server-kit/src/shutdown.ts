import type { Logger } from './logger.js';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

export interface ShutdownOptions {
  logger: Logger;
  /** Runs at once on the first signal (readiness goes 503). */
  onSignal?: () => void;
  /** Time between readiness going 503 and closing the listeners, for load balancers to notice. Default 0. */
  drainDelayMs?: number;
  /**
   * Hard limit: past it the process exits 1 (the steps hung). Default 30 s. Set it above the time the steps
   * may take on purpose (the drain delay plus the in-flight requests' grace period).
   */
  graceMs?: number;
  /** Steps in order: stop accepting, finish in-flight, drain the bus, close stores. */
  steps: ShutdownStep[];
  exit?: (code: number) => void;
}

/**
 * Registers SIGTERM/SIGINT handling once: readiness 503 at once, optional drain delay, then each step in order
 * (a failing step is logged and the rest still run), exit 0; exit 1 if the grace period runs out.
 * Returns the shutdown function so tests and embedded hosts can trigger it directly; it runs once.
 */
export function registerShutdown(options: ShutdownOptions): () => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;
  const shutdown = () => {
    running ??= (async () => {
      options.onSignal?.();
      const timer = setTimeout(() => {
        options.logger.error('shutdown grace period exceeded; exiting');
        exit(1);
      }, options.graceMs ?? 30_000);
      timer.unref();
      if (options.drainDelayMs) await new Promise((r) => setTimeout(r, options.drainDelayMs));
      for (const step of options.steps) {
        try {
          await step.run();
        } catch (error) {
          options.logger.error(`shutdown step ${step.name} failed`, { error });
        }
      }
      clearTimeout(timer);
      options.logger.info('shutdown complete');
      exit(0);
    })();
    return running;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    options.logger.info(`received ${signal}; shutting down`);
    void shutdown();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return shutdown;
}

/** Time the steps after the in-flight requests get (relay, stores, listeners) before the hard limit. */
export const SHUTDOWN_STEPS_MARGIN_MS = 5_000;

/**
 * Closes an http.Server: stops accepting, reaps idle keep-alive sockets, lets in-flight requests finish; those
 * still running after `graceMs` (when given) are cut. Keep-alive sockets that become idle meanwhile are closed
 * as their response ends (Node's server.close does that for HTTP/1.1 once it is closing).
 */
export function closeHttpServer(server: import('node:http').Server, graceMs?: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    let timer: NodeJS.Timeout | undefined;
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    if (graceMs !== undefined) {
      timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
    }
  });
}
