import type { CacheErrorHandler, CacheStats } from './types.js';

/** How often the default handler may log (the cache can fail thousands of times a second during an outage). */
const LOG_INTERVAL_MS = 10_000;

/** The default error handler: one `console.warn` per 10 s with the number of failures since the last one. */
export function throttledWarn(label: string): CacheErrorHandler {
  let lastLog = -Infinity;
  let suppressed = 0;
  return (error, operation) => {
    const now = Date.now();
    if (now - lastLog < LOG_INTERVAL_MS) {
      suppressed += 1;
      return;
    }
    const more = suppressed > 0 ? ` (${suppressed} more failures since the last warning)` : '';
    console.warn(`[${label}] ${operation} failed, serving without cache: ${error.message}${more}`);
    lastLog = now;
    suppressed = 0;
  };
}

/** Hit, miss and failure counters shared by the tenant views of one cache. */
export class CacheCounters {
  private readonly counts: CacheStats = { hits: 0, misses: 0, errors: 0 };

  constructor(private readonly onError: CacheErrorHandler) {}

  hit(): void {
    this.counts.hits += 1;
  }

  miss(): void {
    this.counts.misses += 1;
  }

  /** Records an operation that failed open. Never throws (a throwing handler must not break a request). */
  failed(error: unknown, operation: 'get' | 'set' | 'delete'): void {
    this.counts.errors += 1;
    try {
      this.onError(error instanceof Error ? error : new Error(String(error)), operation);
    } catch {
      // the handler is best effort
    }
  }

  snapshot(): CacheStats {
    return { ...this.counts };
  }
}
