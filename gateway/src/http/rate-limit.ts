import type { Viewer } from '@coperto/auth';
import { RateLimitedError } from '@coperto/errors';
import type { BoundedStats } from '@coperto/metrics';
import {
  connectRedisRateLimiter,
  createMemoryRateLimiter,
  type RateLimiter,
  type RateLimits,
} from '@coperto/rate-limit';
import type { Logger } from '@coperto/server-kit';
import { BUDGETS, budgetsOf, type BudgetName } from './rate-budgets.js';

/**
 * Takes one request from each budget the viewer draws on (rate-budgets.ts), `clientAddress` being the client's
 * address (the socket's, or the one a trusted proxy names); throws RateLimitedError when one is used up.
 */
export type RateLimitCheck = (viewer: Viewer, clientAddress: string) => Promise<void>;

/** The limiter of each budget that has one; a budget without is not limited. */
export type BudgetLimiters = Partial<Record<BudgetName, RateLimiter>>;

export interface GatewayRateLimit {
  check: RateLimitCheck;
  /** The keys each budget holds in this process (embedded), by budget; a budget kept in Redis is absent. */
  bounded(): Partial<Record<BudgetName, BoundedStats>>;
  close(): Promise<void>;
}

export interface RateLimitObserver {
  /** A request refused with 429 by `budget`. */
  limited(budget: BudgetName): void;
  /** A request let through because the shared store (Redis) failed. */
  failedOpen(): void;
}

const FAIL_OPEN_LOG_INTERVAL_MS = 10_000;

/** Whom a refusal speaks of, by the budget that refused it. */
const REFUSED_FOR: Record<BudgetName, string> = {
  tenants: 'this tenant',
  channel_keys: 'this booking channel',
  channel_addresses: 'this booking channel from this address',
  guest_tokens: "this booking's guest link",
};

/**
 * Fairness over RateLimiters: each request takes one from every budget it draws on, in order, and is refused
 * (nothing more taken) at the first one used up.
 */
export function gatewayRateLimit(limiters: BudgetLimiters, observer: RateLimitObserver): GatewayRateLimit {
  return {
    async check(viewer, clientAddress) {
      for (const { budget, key } of budgetsOf(viewer, clientAddress)) {
        const limiter = limiters[budget];
        if (!limiter) continue;
        const decision = await limiter.consume(key);
        if (!decision.allowed) {
          observer.limited(budget);
          throw new RateLimitedError(decision.retryAfterMs / 1000, REFUSED_FOR[budget]);
        }
        if (decision.failedOpen) observer.failedOpen();
      }
    },
    bounded() {
      const out: Partial<Record<BudgetName, BoundedStats>> = {};
      for (const budget of BUDGETS) {
        const stats = limiters[budget]?.bounded();
        if (stats) out[budget] = stats;
      }
      return out;
    },
    async close() {
      await Promise.all(Object.values(limiters).map((limiter) => limiter.close()));
    },
  };
}

/**
 * The gateway's limiters: a budget whose `ratePerSecond` is 0 has none, and none at all is undefined; in memory in
 * embedded mode (one process); on Redis in distributed mode, so that every gateway instance draws on one budget per
 * key. Redis failures let requests through (counted, and logged at most once per 10 s).
 */
export async function openGatewayRateLimit(options: {
  limits: Record<BudgetName, RateLimits>;
  mode: 'embedded' | 'distributed';
  redisUrl: string | undefined;
  logger: Logger;
  observer: RateLimitObserver;
}): Promise<GatewayRateLimit | undefined> {
  let lastLog = -Infinity;
  let suppressed = 0;
  const onError = (error: Error) => {
    const now = Date.now();
    if (now - lastLog < FAIL_OPEN_LOG_INTERVAL_MS) {
      suppressed++;
      return;
    }
    options.logger.warn('rate limit store failed: letting requests through', {
      error: error.message,
      suppressed,
    });
    lastLog = now;
    suppressed = 0;
  };
  const open = (limits: RateLimits) =>
    options.mode === 'distributed' && options.redisUrl
      ? connectRedisRateLimiter({ url: options.redisUrl, ...limits, onError })
      : Promise.resolve(createMemoryRateLimiter(limits));
  const opened = await Promise.allSettled(
    BUDGETS.filter((budget) => options.limits[budget].ratePerSecond > 0).map(async (budget) => ({
      budget,
      limiter: await open(options.limits[budget]),
    })),
  );
  const limiters: BudgetLimiters = {};
  for (const result of opened)
    if (result.status === 'fulfilled') limiters[result.value.budget] = result.value.limiter;
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(Object.values(limiters).map((limiter) => limiter.close()));
    throw failed.reason;
  }
  if (Object.keys(limiters).length === 0) return undefined;
  return gatewayRateLimit(limiters, options.observer);
}
