import { describe, expect, it } from 'vitest';
import { boundedEntries, boundedGrowth } from './s12-memory.js';

describe("scenario 12's bounded-structure readings", () => {
  it('reads bounded_state_entries by structure, and nothing else', () => {
    const text = [
      '# HELP bounded_state_entries Entries held',
      'bounded_state_entries{structure="cache_tenant_views"} 20',
      'bounded_state_entries{service="gateway",structure="auth_verified_tokens"} 7',
      'bounded_state_capacity{structure="cache_tenant_views"} 1000',
      'bounded_state_entries_total{structure="x"} 3',
    ].join('\n');
    expect(boundedEntries(text)).toEqual({ cache_tenant_views: 20, auth_verified_tokens: 7 });
  });

  it('lists the structures that grew, largest first', () => {
    const memory = (bounded: Record<string, number>) => ({
      rss: 0,
      heap: { heapUsed: 0, heapTotal: 0, external: 0 },
      bounded,
    });
    expect(boundedGrowth(memory({ a: 5, b: 1, c: 9 }), memory({ a: 6, b: 40, c: 9, d: 2 }))).toEqual([
      ['b', 39],
      ['d', 2],
      ['a', 1],
    ]);
  });
});
