import { serverUrls, startRedisServer, uniqueName, type TestServer } from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRateLimiter } from './support/contract.js';
import { connectRedisRateLimiter, type RateLimiter } from '../src/index.js';

describeRateLimiter('redis', (limits) =>
  connectRedisRateLimiter({ url: serverUrls().redisUrl, keyPrefix: uniqueName('contract'), ...limits }),
);

describe('redis rate limiter', () => {
  const opened: RateLimiter[] = [];
  afterAll(async () => {
    for (const limiter of opened) await limiter.close();
  });

  it('shares one budget between two limiters (two gateway instances) on the same Redis', async () => {
    const options = {
      url: serverUrls().redisUrl,
      keyPrefix: uniqueName('shared'),
      ratePerSecond: 4,
      burst: 4,
    };
    const [a, b] = [await connectRedisRateLimiter(options), await connectRedisRateLimiter(options)];
    opened.push(a, b);
    let allowed = 0;
    for (let i = 0; i < 20; i++) {
      if ((await (i % 2 === 0 ? a : b).consume('tenant:t1')).allowed) allowed++;
    }
    // 8 per instance would be 16 with separate budgets; shared, at most rate + burst (+ one refilled window).
    expect(allowed).toBeGreaterThanOrEqual(8);
    expect(allowed).toBeLessThanOrEqual(12);
  });

  describe('when Redis is down', () => {
    let redis: TestServer;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('lets requests through and reports each failure (fail-open), then limits again when Redis is back', async () => {
      const errors: Error[] = [];
      const limiter = await connectRedisRateLimiter({
        url: redis.url,
        keyPrefix: uniqueName('down'),
        ratePerSecond: 1,
        burst: 0,
        onError: (error) => errors.push(error),
      });
      opened.push(limiter);
      expect(await limiter.consume('k')).toEqual({ allowed: true });
      expect(await limiter.consume('k')).toMatchObject({ allowed: false });

      await redis.kill();
      const decisions = [await limiter.consume('k'), await limiter.consume('k'), await limiter.consume('k')];
      expect(decisions).toEqual([
        { allowed: true, failedOpen: true },
        { allowed: true, failedOpen: true },
        { allowed: true, failedOpen: true },
      ]);
      expect(errors).toHaveLength(3);

      await redis.restart();
      const deadline = Date.now() + 15_000;
      let refused = false;
      while (!refused && Date.now() < deadline) {
        const decision = await limiter.consume('k2');
        refused = !decision.allowed;
        if (!refused) await new Promise((r) => setTimeout(r, 50));
      }
      expect(refused).toBe(true);
    });
  });
});
