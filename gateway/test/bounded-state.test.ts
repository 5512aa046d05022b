import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent, createMemoryBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import { createMetrics } from '@coperto/metrics';
import { createMemoryRateLimiter } from '@coperto/rate-limit';
import { reportGatewayBounds } from '../src/host/bounded-state.js';
import { createEncodedAnswers } from '../src/rest/encoded-answers.js';
import { gatewayRateLimit } from '../src/http/rate-limit.js';
import type { SubscriptionServer } from '../src/subscriptions/ws-server.js';
import { viewerOf } from './support/events.js';

/** The value of `name{structure="…"}` in a scrape, undefined when absent. */
function valueOf(body: string, name: string, structure: string): number | undefined {
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes(`structure="${structure}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe("the gateway's bounded state in its metrics", () => {
  it('reports each structure this process has, as it fills past its bound', async () => {
    const metrics = createMetrics({ service: 'gateway', defaultMetrics: false });
    const cache = createMemoryCache({ maxEntries: 3 });
    const rateLimit = gatewayRateLimit(
      {
        tenants: createMemoryRateLimiter({ ratePerSecond: 10, burst: 0 }, 2),
        channel_keys: createMemoryRateLimiter({ ratePerSecond: 10, burst: 0 }, 4),
        channel_addresses: createMemoryRateLimiter({ ratePerSecond: 10, burst: 0 }, 3),
        guest_tokens: createMemoryRateLimiter({ ratePerSecond: 10, burst: 0 }, 2),
      },
      { limited: () => {}, failedOpen: () => {} },
    );
    const bus = createMemoryBus({ replayLog: { maxEvents: 2, maxAgeMs: 60_000 } });
    // Not under test here (ws-server.test.ts): only what it reports.
    const subscriptions = {
      bounded: () => ({
        subscription_socket_tenants: { entries: 4, capacity: 5000, evictions: 0 },
        subscription_groups: { entries: 6, capacity: 500_000, evictions: 0 },
        subscription_recent_ids: { entries: 7, capacity: 500_000_000, evictions: 1 },
      }),
    } as unknown as SubscriptionServer;
    const encoded = createEncodedAnswers(2);
    const http = () => ({ rest_encoded_answers: encoded.stats() });
    reportGatewayBounds(metrics, { http, cache, rateLimit, subscriptions, bus });

    for (let i = 0; i < 5; i++) {
      const tenantId = trustedTenantId(`t${i}`);
      await cache.forTenant(tenantId).set('k', i, 60);
      await cache.forTenant(tenantId).get('k');
      await rateLimit.check(viewerOf(tenantId), '127.0.0.1');
      // A booking channel of the tenant, from an address of its own.
      await rateLimit.check(
        {
          ...viewerOf(tenantId),
          grant: { role: 'channel', channelId: 'c', channelName: 'Sito', origine: 'online' },
        },
        `203.0.113.${i}`,
      );
      // A guest link of one of its bookings.
      await rateLimit.check(
        { ...viewerOf(tenantId), grant: { role: 'guest', bookingId: `b${i}` } },
        `203.0.113.${i}`,
      );
      const { message, event } = buildEvent({
        tenantId,
        type: 'tables.status',
        source: '/t',
        subject: 's',
        data: {},
      });
      await bus.publish(message.subject, event);
      encoded(`${tenantId}\nk`, '{}');
    }
    const body = (await metrics.scrape()).body;
    expect(valueOf(body, 'bounded_state_entries', 'cache_entries')).toBe(3);
    expect(valueOf(body, 'bounded_state_evictions_total', 'cache_entries')).toBe(2);
    expect(valueOf(body, 'bounded_state_hits_total', 'cache_entries')).toBe(5);
    expect(valueOf(body, 'bounded_state_entries', 'cache_tenant_views')).toBe(5);
    expect(valueOf(body, 'bounded_state_entries', 'rate_limit_tenants')).toBe(2);
    expect(valueOf(body, 'bounded_state_evictions_total', 'rate_limit_tenants')).toBe(3);
    expect(valueOf(body, 'bounded_state_entries', 'rate_limit_channel_keys')).toBe(4);
    expect(valueOf(body, 'bounded_state_evictions_total', 'rate_limit_channel_keys')).toBe(1);
    expect(valueOf(body, 'bounded_state_entries', 'rate_limit_channel_addresses')).toBe(3);
    expect(valueOf(body, 'bounded_state_evictions_total', 'rate_limit_channel_addresses')).toBe(2);
    expect(valueOf(body, 'bounded_state_entries', 'rate_limit_guest_tokens')).toBe(2);
    expect(valueOf(body, 'bounded_state_evictions_total', 'rate_limit_guest_tokens')).toBe(3);
    expect(valueOf(body, 'bounded_state_entries', 'replay_log')).toBe(2);
    expect(valueOf(body, 'bounded_state_evictions_total', 'replay_log')).toBe(3);
    expect(valueOf(body, 'bounded_state_entries', 'subscription_groups')).toBe(6);
    expect(valueOf(body, 'bounded_state_evictions_total', 'subscription_recent_ids')).toBe(1);
    expect(valueOf(body, 'bounded_state_entries', 'rest_encoded_answers')).toBe(2);
    expect(valueOf(body, 'bounded_state_evictions_total', 'rest_encoded_answers')).toBe(3);
    expect(valueOf(body, 'bounded_state_misses_total', 'rest_encoded_answers')).toBe(5);
    await bus.close();
    await cache.close();
  });

  it('reports nothing of what a process does not hold (no cache, a shared rate limiter)', async () => {
    const metrics = createMetrics({ service: 'gateway', defaultMetrics: false });
    const subscriptions = {
      bounded: () => ({
        subscription_socket_tenants: { entries: 0, capacity: 1, evictions: 0 },
        subscription_groups: { entries: 0, capacity: 1, evictions: 0 },
        subscription_recent_ids: { entries: 0, capacity: 1000, evictions: 0 },
      }),
    } as unknown as SubscriptionServer;
    const shared = {
      consume: async () => ({ allowed: true as const }),
      bounded: () => undefined,
      close: async () => {},
    };
    reportGatewayBounds(metrics, {
      http: () => ({}),
      cache: undefined,
      rateLimit: gatewayRateLimit(
        { tenants: shared, channel_keys: shared, channel_addresses: shared, guest_tokens: shared },
        { limited: () => {}, failedOpen: () => {} },
      ),
      subscriptions,
      bus: createMemoryBus(),
    });
    const body = (await metrics.scrape()).body;
    expect(body).not.toContain('structure="cache_');
    expect(body).not.toContain('structure="rate_limit_');
    expect(body).not.toContain('structure="replay_log"');
    expect(body).not.toContain('structure="google_tokens"');
    expect(valueOf(body, 'bounded_state_entries', 'subscription_socket_tenants')).toBe(0);
  });
});
