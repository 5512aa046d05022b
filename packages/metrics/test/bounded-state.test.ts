import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/index.js';

const line = (body: string, name: string, structure: string) =>
  body.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`structure="${structure}"`));

describe('bounded state metrics', () => {
  it('reads every registered structure at each scrape, labelled by structure', async () => {
    const metrics = createMetrics({ service: 'test', defaultMetrics: false });
    let entries = 3;
    metrics.bounded('cache_tenant_views', () => ({
      entries,
      capacity: 1000,
      evictions: 7,
      hits: 40,
      misses: 10,
    }));
    metrics.bounded('rate_limit_keys', () => ({ entries: 1, capacity: 50_000, evictions: 0 }));
    let body = (await metrics.scrape()).body;
    expect(line(body, 'bounded_state_entries', 'cache_tenant_views')).toMatch(/ 3$/);
    expect(line(body, 'bounded_state_capacity', 'cache_tenant_views')).toMatch(/ 1000$/);
    expect(line(body, 'bounded_state_evictions_total', 'cache_tenant_views')).toMatch(/ 7$/);
    expect(line(body, 'bounded_state_hits_total', 'cache_tenant_views')).toMatch(/ 40$/);
    expect(line(body, 'bounded_state_misses_total', 'cache_tenant_views')).toMatch(/ 10$/);
    expect(line(body, 'bounded_state_entries', 'rate_limit_keys')).toMatch(/ 1$/);
    // No hit counts for a structure that is no cache.
    expect(line(body, 'bounded_state_hits_total', 'rate_limit_keys')).toBeUndefined();
    entries = 5;
    body = (await metrics.scrape()).body;
    expect(line(body, 'bounded_state_entries', 'cache_tenant_views')).toMatch(/ 5$/);
  });

  it('refuses a structure registered twice', () => {
    const metrics = createMetrics({ service: 'test', defaultMetrics: false });
    metrics.bounded('x', () => ({ entries: 0, capacity: 1, evictions: 0 }));
    expect(() => metrics.bounded('x', () => ({ entries: 0, capacity: 1, evictions: 0 }))).toThrow(/twice/);
  });
});
