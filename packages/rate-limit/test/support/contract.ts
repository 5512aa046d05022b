/**
 * The RateLimiter contract suite: the memory and the Redis limiter both pass it
 * (`describeRateLimiter('redis', (limits) => connectRedisRateLimiter({ url, ...limits }))`). Every test uses
 * keys of its own, so suites can share one Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { RateDecision, RateLimiter, RateLimits } from '../../src/types.js';

const newKey = () => `contract:${randomBytes(6).toString('hex')}`;

async function consumeMany(limiter: RateLimiter, key: string, count: number): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.consume(key));
  return decisions;
}

const allowedCount = (decisions: RateDecision[]) => decisions.filter((d) => d.allowed).length;

export function describeRateLimiter(name: string, open: (limits: RateLimits) => Promise<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const opened: RateLimiter[] = [];
    const limiter = async (limits: RateLimits) => {
      const made = await open(limits);
      opened.push(made);
      return made;
    };
    afterAll(async () => {
      for (const made of opened) await made.close();
    });

    it('lets a key make its rate plus its burst, then refuses with the time until it has budget again', async () => {
      // A rate of 5/s cannot refill 40 requests' worth within one test step: the count is exact.
      const rl = await limiter({ ratePerSecond: 5, burst: 10 });
      const key = newKey();
      const decisions = await consumeMany(rl, key, 40);
      expect(allowedCount(decisions)).toBeLessThanOrEqual(15 + 5);
      expect(allowedCount(decisions)).toBeGreaterThanOrEqual(15);
      const refused = decisions.filter((d) => !d.allowed);
      expect(refused.length).toBeGreaterThan(0);
      for (const d of refused) {
        if (d.allowed) continue;
        expect(d.retryAfterMs).toBeGreaterThan(0);
        expect(d.retryAfterMs).toBeLessThanOrEqual(1000);
      }
      expect(decisions.every((d) => !(d.allowed && d.failedOpen))).toBe(true);
    });

    it('counts every key on its own: one key over budget does not touch another', async () => {
      const rl = await limiter({ ratePerSecond: 3, burst: 0 });
      const [flooding, quiet] = [newKey(), newKey()];
      await consumeMany(rl, flooding, 20);
      expect(await rl.consume(flooding)).toMatchObject({ allowed: false });
      expect(await rl.consume(quiet)).toEqual({ allowed: true });
    });

    it('gives a refused key budget again once retryAfterMs has passed', async () => {
      const rl = await limiter({ ratePerSecond: 2, burst: 0 });
      const key = newKey();
      await consumeMany(rl, key, 5);
      const refused = await rl.consume(key);
      if (refused.allowed) throw new Error('expected a refusal after 5 requests at 2/s');
      await new Promise((r) => setTimeout(r, refused.retryAfterMs + 50));
      expect(await rl.consume(key)).toEqual({ allowed: true });
    });

    it('refuses limits that are not a positive rate and a non-negative burst', async () => {
      await expect(open({ ratePerSecond: 0, burst: 1 })).rejects.toThrow(RangeError);
      await expect(open({ ratePerSecond: 1, burst: -1 })).rejects.toThrow(RangeError);
    });
  });
}
