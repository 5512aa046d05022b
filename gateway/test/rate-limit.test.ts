import { describe, expect, it } from 'vitest';
import type { Viewer } from '@coperto/auth';
import { ConfigError } from '@coperto/config';
import { RateLimitedError } from '@coperto/errors';
import { createMemoryRateLimiter, type RateDecision, type RateLimiter } from '@coperto/rate-limit';
import { readGatewayConfig } from '../src/config.js';
import { addressBucket, budgetsOf, channelKey, guestKey, tenantKey } from '../src/http/rate-budgets.js';
import { gatewayRateLimit, type RateLimitObserver } from '../src/http/rate-limit.js';
import { viewerOf } from './support/events.js';

/** A limiter answering from a script, recording the keys it was asked about. */
function scripted(decisions: RateDecision[]): RateLimiter & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    consume: async (key) => {
      keys.push(key);
      return decisions.shift() ?? { allowed: true };
    },
    bounded: () => undefined,
    close: async () => {},
  };
}

/** An observer counting what it is told. */
function counting() {
  const counts = { limited: [] as string[], failedOpen: 0 };
  const observer: RateLimitObserver = {
    limited: (budget) => counts.limited.push(budget),
    failedOpen: () => counts.failedOpen++,
  };
  return { counts, observer };
}

/** A booking channel's key as the verifier builds its viewer. */
function channelViewer(tenantId: string, channelId: string): Viewer {
  return {
    ...viewerOf(tenantId),
    subject: channelId,
    roles: ['channel'],
    grant: { role: 'channel', channelId, channelName: 'Sito', origine: 'online' },
  };
}

const guestViewer = (tenantId: string): Viewer => ({
  ...viewerOf(tenantId),
  roles: ['guest'],
  grant: { role: 'guest', bookingId: 'b1' },
});

/** Whether `check` let the request through (true) or refused it with RATE_LIMITED (false). */
async function passes(check: Promise<void>): Promise<boolean> {
  try {
    await check;
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(RateLimitedError);
    return false;
  }
}

describe('which budgets a request draws on', () => {
  it("staff draw on their tenant's, a booking's guest on its booking's; a channel key on its address's, then its own", () => {
    expect(budgetsOf(viewerOf('alpha'), '203.0.113.5')).toEqual([
      { budget: 'tenants', key: tenantKey('alpha') },
    ]);
    expect(budgetsOf(guestViewer('alpha'), '203.0.113.5')).toEqual([
      { budget: 'guest_tokens', key: guestKey('alpha', 'b1') },
    ]);
    const draws = budgetsOf(channelViewer('alpha', 'c1'), '203.0.113.5');
    expect(draws.map((d) => d.budget)).toEqual(['channel_addresses', 'channel_keys']);
    expect(draws[1]!.key).toBe(channelKey('alpha', 'c1'));
    expect(draws[0]!.key).toContain('203.0.113.5');
    // Keys are the tenant's: the same channel id and address under another tenant is another budget.
    expect(budgetsOf(channelViewer('beta', 'c1'), '203.0.113.5')[0]!.key).not.toBe(draws[0]!.key);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    expect(addressBucket('203.0.113.5')).toBe('203.0.113.5');
    expect(addressBucket('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe(addressBucket('2001:0db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressBucket('2001:db8:1:2::1')).not.toBe(addressBucket('2001:db8:1:3::1'));
    expect(addressBucket('not an address')).toBe('not an address');
  });
});

describe('the gateway rate limit', () => {
  it("counts each request against the viewer's tenant and refuses over budget with RATE_LIMITED", async () => {
    const limiter = scripted([{ allowed: true }, { allowed: false, retryAfterMs: 1500 }]);
    const { counts, observer } = counting();
    const limit = gatewayRateLimit({ tenants: limiter }, observer);
    await limit.check(viewerOf('alpha'), '127.0.0.1');
    const refusal = await limit.check(viewerOf('alpha'), '127.0.0.1').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterSeconds: 2 });
    expect((refusal as Error).message).toContain('this tenant');
    expect(limiter.keys).toEqual([tenantKey('alpha'), tenantKey('alpha')]);
    expect(counts).toEqual({ limited: ['tenants'], failedOpen: 0 });
  });

  it('lets a request through when the store failed, and counts it', async () => {
    const { counts, observer } = counting();
    const limit = gatewayRateLimit({ tenants: scripted([{ allowed: true, failedOpen: true }]) }, observer);
    await expect(limit.check(viewerOf('alpha'), '127.0.0.1')).resolves.toBeUndefined();
    expect(counts).toEqual({ limited: [], failedOpen: 1 });
  });

  it("a refusal by the client's address takes nothing from the channel key's budget", async () => {
    const perAddress = scripted([{ allowed: false, retryAfterMs: 300 }]);
    const perKey = scripted([]);
    const { counts, observer } = counting();
    const limit = gatewayRateLimit({ channel_addresses: perAddress, channel_keys: perKey }, observer);
    const refusal = await limit.check(channelViewer('alpha', 'c1'), '203.0.113.5').catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect((refusal as Error).message).toContain('this booking channel from this address');
    expect(perAddress.keys).toHaveLength(1);
    expect(perKey.keys).toEqual([]);
    expect(counts.limited).toEqual(['channel_addresses']);
  });

  it("stops a booking's flooding guest link while the tenant's staff are answered", async () => {
    const { counts, observer } = counting();
    const limit = gatewayRateLimit(
      {
        tenants: createMemoryRateLimiter({ ratePerSecond: 2, burst: 0 }),
        guest_tokens: createMemoryRateLimiter({ ratePerSecond: 2, burst: 0 }),
      },
      observer,
    );
    const guest = await Promise.all(
      Array.from({ length: 5 }, () => passes(limit.check(guestViewer('alpha'), '::1'))),
    );
    expect(guest.filter(Boolean)).toHaveLength(2);
    const refusal = await limit.check(guestViewer('alpha'), '::1').catch((e: unknown) => e);
    expect((refusal as Error).message).toContain("this booking's guest link");
    // The tenant's budget is untouched: its staff still have both of their requests this second.
    expect(await passes(limit.check(viewerOf('alpha'), '::1'))).toBe(true);
    expect(await passes(limit.check(viewerOf('alpha'), '::1'))).toBe(true);
    expect(counts.limited.every((budget) => budget === 'guest_tokens')).toBe(true);
    await limit.close();
  });

  it("stops one flooding address of a channel key while its other guests and the tenant's staff are answered", async () => {
    const tenants = createMemoryRateLimiter({ ratePerSecond: 2, burst: 0 });
    const limit = gatewayRateLimit(
      {
        tenants,
        channel_keys: createMemoryRateLimiter({ ratePerSecond: 20, burst: 0 }),
        channel_addresses: createMemoryRateLimiter({ ratePerSecond: 3, burst: 0 }),
      },
      counting().observer,
    );
    const channel = channelViewer('alpha', 'c1');
    const flood = [];
    for (let i = 0; i < 10; i++) flood.push(await passes(limit.check(channel, '203.0.113.5')));
    // Within one second (3 per second): the first three, then nothing.
    expect(flood).toEqual([true, true, true, ...Array<boolean>(7).fill(false)]);
    expect(await passes(limit.check(channel, '198.51.100.7'))).toBe(true);
    // The channel spent nothing of the tenant's own budget (2 per second): staff still have both.
    expect(await passes(limit.check(viewerOf('alpha'), '203.0.113.5'))).toBe(true);
    expect(await passes(limit.check(viewerOf('alpha'), '203.0.113.5'))).toBe(true);
    expect(await passes(limit.check(viewerOf('alpha'), '203.0.113.5'))).toBe(false);
  });

  it('holds a channel key to its own budget when many addresses, each within theirs, exceed it', async () => {
    const limit = gatewayRateLimit(
      {
        channel_keys: createMemoryRateLimiter({ ratePerSecond: 5, burst: 0 }),
        channel_addresses: createMemoryRateLimiter({ ratePerSecond: 3, burst: 0 }),
      },
      counting().observer,
    );
    const answered = [];
    for (let i = 0; i < 4; i++) {
      answered.push(await passes(limit.check(channelViewer('alpha', 'c1'), `203.0.113.${i + 1}`)));
      answered.push(await passes(limit.check(channelViewer('alpha', 'c1'), `203.0.113.${i + 1}`)));
    }
    expect(answered.filter(Boolean)).toHaveLength(5);
    // Another channel of the same tenant has a budget of its own.
    expect(await passes(limit.check(channelViewer('alpha', 'c2'), '203.0.113.1'))).toBe(true);
  });

  it('reports the keys each budget holds in memory, and only those', () => {
    const limit = gatewayRateLimit(
      {
        tenants: createMemoryRateLimiter({ ratePerSecond: 1, burst: 0 }, 7),
        channel_addresses: scripted([]),
      },
      counting().observer,
    );
    expect(limit.bounded()).toEqual({ tenants: { entries: 0, capacity: 7, evictions: 0 } });
  });
});

describe('the default budgets', () => {
  it('holds a flooding tenant (a restaurant) while leaving another tenant its budget', async () => {
    const config = readGatewayConfig({});
    expect(config.RATE_LIMIT_TENANT_RPS).toBeGreaterThan(0);
    const limiter = createMemoryRateLimiter({
      ratePerSecond: config.RATE_LIMIT_TENANT_RPS,
      burst: config.RATE_LIMIT_TENANT_BURST,
    });
    // 5,000 requests in well under a second: what a runaway script sends, a tenth of what one gateway serves.
    const decisions = [];
    for (let i = 0; i < 5000; i += 1) decisions.push(await limiter.consume(tenantKey('flood')));
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBe(config.RATE_LIMIT_TENANT_RPS + config.RATE_LIMIT_TENANT_BURST);
    expect(await limiter.consume(tenantKey('quiet'))).toEqual({ allowed: true });
    await limiter.close();
  });

  it("leave one address a small share of a channel key's budget, and a guest's visit far inside it", () => {
    const config = readGatewayConfig({});
    // One abusive address takes at most a tenth of the rate every guest of the page shares.
    expect(config.RATE_LIMIT_CHANNEL_ADDRESS_RPS * 10).toBeLessThanOrEqual(config.RATE_LIMIT_CHANNEL_RPS);
    // A guest's visit (a few searches, an option, the booking: tens of requests) never meets its address's limit.
    expect(config.RATE_LIMIT_CHANNEL_ADDRESS_RPS + config.RATE_LIMIT_CHANNEL_ADDRESS_BURST).toBeGreaterThan(
      50,
    );
    expect(config.TRUSTED_PROXIES).toEqual([]);
  });

  it('takes reverse proxies as addresses, CIDR ranges or range names, and refuses anything else', () => {
    const config = readGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1, loopback, fd00::/8' });
    expect(config.TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '192.0.2.1', 'loopback', 'fd00::/8']);
    expect(() => readGatewayConfig({ TRUSTED_PROXIES: 'proxy.internal' })).toThrow(ConfigError);
    expect(() => readGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(/TRUSTED_PROXIES/);
  });
});
