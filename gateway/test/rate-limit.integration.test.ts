// Distributed mode's budgets on the real Redis: two gateway instances draw on one channel key's budgets.
import { afterAll, describe, expect, it } from 'vitest';
import type { Viewer } from '@coperto/auth';
import { RateLimitedError } from '@coperto/errors';
import { createLogger } from '@coperto/server-kit';
import { newTenantId, serverUrls } from '@coperto/testkit';
import { openGatewayRateLimit, type GatewayRateLimit } from '../src/http/rate-limit.js';
import { viewerOf } from './support/events.js';

const channel = (tenantId: string): Viewer => ({
  ...viewerOf(tenantId),
  grant: { role: 'channel', channelId: 'sito', channelName: 'Sito', origine: 'online' },
});

describe('the gateway rate limit on Redis (distributed mode)', () => {
  const opened: GatewayRateLimit[] = [];
  afterAll(async () => {
    for (const limit of opened) await limit.close();
  });

  const open = async () => {
    const limit = await openGatewayRateLimit({
      limits: {
        // 0: the tenants' and guests' budgets are off, so only the channel's are opened.
        tenants: { ratePerSecond: 0, burst: 0 },
        channel_keys: { ratePerSecond: 1, burst: 20 },
        channel_addresses: { ratePerSecond: 1, burst: 4 },
        guest_tokens: { ratePerSecond: 0, burst: 0 },
      },
      mode: 'distributed',
      redisUrl: serverUrls().redisUrl,
      logger: createLogger({ name: 'test', level: 'silent' }),
      observer: { limited: () => {}, failedOpen: () => {} },
    });
    if (!limit) throw new Error('expected a rate limit');
    opened.push(limit);
    return limit;
  };
  const passes = (check: Promise<void>) =>
    check.then(
      () => true,
      (error: unknown) => {
        expect(error).toBeInstanceOf(RateLimitedError);
        return false;
      },
    );

  it("shares a client address's budget on a channel key between two instances, and holds nothing in memory", async () => {
    const [first, second] = [await open(), await open()];
    const viewer = channel(newTenantId());
    const answered: boolean[] = [];
    for (let i = 0; i < 12; i++) {
      answered.push(await passes((i % 2 === 0 ? first : second).check(viewer, '203.0.113.9')));
    }
    // 1 per second plus a burst of 4, shared: 5 (6 if a one-second window renewed meanwhile), never 10.
    const allowed = answered.filter(Boolean).length;
    expect(allowed).toBeGreaterThanOrEqual(5);
    expect(allowed).toBeLessThanOrEqual(6);
    // Another guest of the same page is answered by either instance; staff are not limited (budget off).
    expect(await passes(second.check(viewer, '198.51.100.4'))).toBe(true);
    for (let i = 0; i < 30; i++)
      expect(await passes(first.check(viewerOf(viewer.tenantId), '203.0.113.9'))).toBe(true);
    expect(first.bounded()).toEqual({});
  });

  it('opens nothing when every budget is off', async () => {
    const limit = await openGatewayRateLimit({
      limits: {
        tenants: { ratePerSecond: 0, burst: 0 },
        channel_keys: { ratePerSecond: 0, burst: 0 },
        channel_addresses: { ratePerSecond: 0, burst: 0 },
        guest_tokens: { ratePerSecond: 0, burst: 0 },
      },
      mode: 'distributed',
      redisUrl: serverUrls().redisUrl,
      logger: createLogger({ name: 'test', level: 'silent' }),
      observer: { limited: () => {}, failedOpen: () => {} },
    });
    expect(limit).toBeUndefined();
  });
});
