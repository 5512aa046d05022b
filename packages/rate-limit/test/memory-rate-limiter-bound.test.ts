import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../src/memory-rate-limiter.js';

describe('memory rate limiter bound', () => {
  it('holds budgets for at most maxKeys keys; the least recently seen one starts afresh', async () => {
    const limiter = createMemoryRateLimiter({ ratePerSecond: 1, burst: 0 }, 3);
    expect((await limiter.consume('tenant:0')).allowed).toBe(true);
    expect((await limiter.consume('tenant:0')).allowed).toBe(false);
    for (let i = 1; i <= 10; i++) await limiter.consume(`tenant:${i}`);
    expect(limiter.bounded()).toEqual({ entries: 3, capacity: 3, evictions: 8 });
    // tenant:0 was evicted: its spent budget went with it.
    expect((await limiter.consume('tenant:0')).allowed).toBe(true);
    expect((await limiter.consume('tenant:10')).allowed).toBe(false);
    await limiter.close();
  });

  it('lets go of keys whose windows ended', async () => {
    const limiter = createMemoryRateLimiter({ ratePerSecond: 100, burst: 0 }, 10);
    await limiter.consume('tenant:a');
    await limiter.consume('tenant:b');
    expect(limiter.bounded()?.entries).toBe(2);
    await new Promise((r) => setTimeout(r, 1100));
    expect(limiter.bounded()).toEqual({ entries: 0, capacity: 10, evictions: 0 });
  });
});
