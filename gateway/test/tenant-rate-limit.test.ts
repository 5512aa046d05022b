import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '@coperto/errors';
import { createMemoryRateLimiter, type RateDecision, type RateLimiter } from '@coperto/rate-limit';
import { readGatewayConfig } from '../src/config.js';
import { tenantKey, tenantRateLimit } from '../src/http/tenant-rate-limit.js';
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

describe('tenant rate limit', () => {
  it("counts each request against the viewer's tenant and refuses over budget with RATE_LIMITED", async () => {
    const limiter = scripted([{ allowed: true }, { allowed: false, retryAfterMs: 1500 }]);
    const counts = { limited: 0, failedOpen: 0 };
    const limit = tenantRateLimit(limiter, {
      limited: () => counts.limited++,
      failedOpen: () => counts.failedOpen++,
    });
    await limit.check(viewerOf('alpha'));
    const refusal = await limit.check(viewerOf('alpha')).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterSeconds: 2 });
    expect(limiter.keys).toEqual([tenantKey('alpha'), tenantKey('alpha')]);
    expect(counts).toEqual({ limited: 1, failedOpen: 0 });
  });

  it('lets a request through when the store failed, and counts it', async () => {
    const counts = { limited: 0, failedOpen: 0 };
    const limit = tenantRateLimit(scripted([{ allowed: true, failedOpen: true }]), {
      limited: () => counts.limited++,
      failedOpen: () => counts.failedOpen++,
    });
    await expect(limit.check(viewerOf('alpha'))).resolves.toBeUndefined();
    expect(counts).toEqual({ limited: 0, failedOpen: 1 });
  });
});

describe('the default per-tenant budget', () => {
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
});
