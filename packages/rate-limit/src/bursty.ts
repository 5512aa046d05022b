import {
  BurstyRateLimiter,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateDecision, RateLimitErrorHandler, RateLimits } from './types.js';

type Consumer = Pick<RateLimiterAbstract, 'consume'> | BurstyRateLimiter;

/** Checks limits: a positive finite rate, a non-negative finite burst. */
function assertLimits(limits: RateLimits): void {
  if (!Number.isFinite(limits.ratePerSecond) || limits.ratePerSecond <= 0)
    throw new RangeError('ratePerSecond must be a positive number');
  if (!Number.isFinite(limits.burst) || limits.burst < 0) throw new RangeError('burst must be >= 0');
}

/**
 * The limiter for `limits` out of one rate-limiter-flexible class (`make`): a one-second window of
 * `ratePerSecond` points, and when `burst` > 0 a second limiter of `burst` points over
 * `ceil(burst / ratePerSecond)` seconds that takes the requests the first one refuses.
 */
export function burstyConsumer(
  limits: RateLimits,
  keyPrefix: string,
  make: (options: IRateLimiterOptions) => RateLimiterAbstract,
): Consumer {
  assertLimits(limits);
  const sustained = make({
    keyPrefix: `${keyPrefix}:s`,
    points: Math.ceil(limits.ratePerSecond),
    duration: 1,
  });
  if (limits.burst === 0) return sustained;
  const burst = make({
    keyPrefix: `${keyPrefix}:b`,
    points: Math.ceil(limits.burst),
    duration: Math.max(1, Math.ceil(limits.burst / limits.ratePerSecond)),
  });
  return new BurstyRateLimiter(sustained, burst);
}

/** One request against `consumer`: refused when over budget, let through (and reported) when the store fails. */
export async function decide(
  consumer: Consumer,
  key: string,
  onError: RateLimitErrorHandler,
): Promise<RateDecision> {
  try {
    await consumer.consume(key, 1);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(rejection.msBeforeNext)) };
    }
    try {
      onError(rejection instanceof Error ? rejection : new Error(String(rejection)));
    } catch {
      // best effort
    }
    return { allowed: true, failedOpen: true };
  }
}
