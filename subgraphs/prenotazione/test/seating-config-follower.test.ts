import { describe, expect, it } from 'vitest';
import type { SubgraphClient } from '@coperto/server-kit';
import {
  SEATING_CONFIG_EVENTS,
  SeatingConfigCache,
  seatingConfigFollower,
} from '../src/seating/seating-sources.js';

/** capacity answering the settings it holds now, counting how often it was asked (per tenant token). */
function capacity() {
  const minutes = new Map<string, number>([
    ['alpha', 90],
    ['beta', 90],
  ]);
  const asked: string[] = [];
  const client: SubgraphClient = {
    request: async (_subgraph, _document, _variables, authorization) => {
      const tenant = authorization.replace('Bearer ', '');
      asked.push(tenant);
      return {
        slotConfig: {
          defaultMealMinutes: minutes.get(tenant)!,
          reseat: true,
          reseatFreezeMinutes: 60,
          shortenedMinMinutes: null,
          turnTimes: [],
        },
      } as never;
    },
  };
  return { client, minutes, asked };
}

const configEvent = { id: 'e1', type: 'capacity.config.updated' } as never;

describe("a process's seating settings follow capacity's changes", () => {
  it('keeps a tenant’s settings across requests until capacity announces a change, then asks again', async () => {
    const { client, minutes, asked } = capacity();
    const cache = new SeatingConfigCache(client);
    const follower = seatingConfigFollower(cache);
    expect(follower.subject).toBe(SEATING_CONFIG_EVENTS);
    expect((await cache.get('alpha', 'alpha')).defaultMealMinutes).toBe(90);
    expect((await cache.get('beta', 'beta')).defaultMealMinutes).toBe(90);
    minutes.set('alpha', 120);
    // Not yet announced: the kept settings are used (one question per tenant so far).
    expect((await cache.get('alpha', 'alpha')).defaultMealMinutes).toBe(90);
    follower.handle(configEvent, 'tenant.alpha.restaurant.capacity.config.updated');
    expect((await cache.get('alpha', 'alpha')).defaultMealMinutes).toBe(120);
    // Another tenant's settings are not dropped by alpha's change.
    await cache.get('beta', 'beta');
    expect(asked).toEqual(['alpha', 'beta', 'alpha']);
  });

  it('ignores an event whose subject names no tenant', async () => {
    const { client, asked } = capacity();
    const cache = new SeatingConfigCache(client);
    await cache.get('alpha', 'alpha');
    seatingConfigFollower(cache).handle(configEvent, 'capacity.config.updated');
    await cache.get('alpha', 'alpha');
    expect(asked).toEqual(['alpha']);
  });

  it('forgets every tenant’s settings when the feed had a gap (changes may have gone unheard)', async () => {
    const { client, asked } = capacity();
    const cache = new SeatingConfigCache(client);
    await cache.get('alpha', 'alpha');
    await cache.get('beta', 'beta');
    seatingConfigFollower(cache).reset();
    await cache.get('alpha', 'alpha');
    await cache.get('beta', 'beta');
    expect(asked).toEqual(['alpha', 'beta', 'alpha', 'beta']);
  });

  it('still asks again after the TTL, should a change have been missed without a gap being seen', async () => {
    const { client, asked } = capacity();
    let clock = Date.parse('2026-11-28T20:00:00Z');
    const cache = new SeatingConfigCache(client, () => new Date(clock));
    await cache.get('alpha', 'alpha');
    clock += 59 * 60_000;
    await cache.get('alpha', 'alpha');
    clock += 2 * 60_000;
    await cache.get('alpha', 'alpha');
    expect(asked).toEqual(['alpha', 'alpha']);
  });
});
