import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { burstyConsumer, decide } from './bursty.js';
import type { RateLimiter, RateLimitErrorHandler, RateLimits } from './types.js';

export interface RedisRateLimiterOptions extends RateLimits {
  url: string;
  /** Prefix of the keys (`<prefix>:rl:s:<key>`, `<prefix>:rl:b:<key>`). Default `coperto`. */
  keyPrefix?: string;
  /** Bound on each Redis call: a hung Redis must not hang requests. Default 200 ms. */
  commandTimeoutMs?: number;
  /** How long `connectRedisRateLimiter` waits for the first connection. Default 2000 ms. */
  connectTimeoutMs?: number;
  /** Called for every request let through because Redis failed (fail-open). */
  onError?: RateLimitErrorHandler;
}

/**
 * The limiter shared by every gateway instance (distributed mode): rate-limiter-flexible's atomic Lua
 * increment-with-expiry on Redis, one round trip per request. Fails open: while Redis is down or slow,
 * requests go through and `onError` reports each one. Resolves once connected, or after `connectTimeoutMs`
 * with a limiter that fails open until Redis is up (it reconnects for ever).
 */
export async function connectRedisRateLimiter(options: RedisRateLimiterOptions): Promise<RateLimiter> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 200,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  // Connection errors are reported per refused request through onError; without a listener ioredis prints them.
  redis.on('error', () => {});
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, connectTimeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  redis.connect().catch(() => {});
  await ready;

  const consumer = burstyConsumer(
    options,
    `${options.keyPrefix ?? 'coperto'}:rl`,
    (limiterOptions) =>
      new RateLimiterRedis({ ...limiterOptions, storeClient: redis, rejectIfRedisNotReady: true }),
  );
  const onError = options.onError ?? (() => {});
  return {
    consume: (key) => decide(consumer, key, onError),
    bounded: () => undefined,
    async close() {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
