import type { Viewer } from '@coperto/auth';
import { RateLimitedError } from '@coperto/errors';
import {
  connectRedisRateLimiter,
  createMemoryRateLimiter,
  type RateLimiter,
  type RateLimits,
} from '@coperto/rate-limit';
import type { Logger } from '@coperto/server-kit';

/** Takes one request from the viewer's tenant budget; throws RateLimitedError when it is used up. */
export type RateLimitCheck = (viewer: Viewer) => Promise<void>;

export interface TenantRateLimit {
  check: RateLimitCheck;
  /** The tenants the limiter holds budgets for in this process (embedded), or undefined (Redis). */
  bounded: RateLimiter['bounded'];
  close(): Promise<void>;
}

export interface TenantRateLimitObserver {
  /** A request refused with 429. */
  limited(): void;
  /** A request let through because the shared store (Redis) failed. */
  failedOpen(): void;
}

const FAIL_OPEN_LOG_INTERVAL_MS = 10_000;

/** The key of a tenant's budget. */
export const tenantKey = (tenantId: string) => `tenant:${tenantId}`;

/** Per-tenant fairness over a RateLimiter: the budget is keyed by the tenant of the verified token. */
export function tenantRateLimit(limiter: RateLimiter, observer: TenantRateLimitObserver): TenantRateLimit {
  return {
    async check(viewer) {
      const decision = await limiter.consume(tenantKey(viewer.tenantId));
      if (decision.allowed) {
        if (decision.failedOpen) observer.failedOpen();
        return;
      }
      observer.limited();
      throw new RateLimitedError(decision.retryAfterMs / 1000);
    },
    bounded: () => limiter.bounded(),
    close: () => limiter.close(),
  };
}

/**
 * The gateway's limiter: none when `ratePerSecond` is 0; in memory in embedded mode (one process); on Redis in
 * distributed mode, so that every gateway instance draws on one budget per tenant. Redis failures let requests
 * through (counted, and logged at most once per 10 s).
 */
export async function openTenantRateLimit(options: {
  limits: RateLimits;
  mode: 'embedded' | 'distributed';
  redisUrl: string | undefined;
  logger: Logger;
  observer: TenantRateLimitObserver;
}): Promise<TenantRateLimit | undefined> {
  if (options.limits.ratePerSecond <= 0) return undefined;
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
  const limiter =
    options.mode === 'distributed' && options.redisUrl
      ? await connectRedisRateLimiter({ url: options.redisUrl, ...options.limits, onError })
      : createMemoryRateLimiter(options.limits);
  return tenantRateLimit(limiter, options.observer);
}
