/**
 * A budget per key: `ratePerSecond` requests in each one-second window, plus up to `burst` more over a
 * window of `ceil(burst / ratePerSecond)` seconds (rate-limiter-flexible's BurstyRateLimiter).
 */
export interface RateLimits {
  /** Sustained requests per second per key; must be positive (a caller disables limiting by not making one). */
  ratePerSecond: number;
  /** Extra requests a key may make above the rate in a short burst. 0: none. */
  burst: number;
}

export type RateDecision =
  | { allowed: true; /** The store failed and the request was let through (fail-open). */ failedOpen?: true }
  | { allowed: false; /** When the key has budget again. */ retryAfterMs: number };

/** Counts requests per key against RateLimits. Memory (one process) or Redis (shared by every process). */
export interface RateLimiter {
  /** Takes one request from `key`'s budget. Never rejects: a store failure lets the request through. */
  consume(key: string): Promise<RateDecision>;
  /**
   * The keys this process holds budgets for, with their bound (the memory limiter); undefined when the budgets
   * live in Redis (expiring there).
   */
  bounded(): { entries: number; capacity: number; evictions: number } | undefined;
  close(): Promise<void>;
}

/** Called when the store failed and a request was let through. Must not throw. */
export type RateLimitErrorHandler = (error: Error) => void;
