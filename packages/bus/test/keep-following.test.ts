import { describe, expect, it } from 'vitest';
import { keepFollowing } from '../src/keep-following.js';
import { createMemoryBus } from '../src/memory-bus.js';
import type { CloudEvent, EventBus, Subscription } from '../src/types.js';

const SUBJECT = 'tenant.t1.restaurant.capacity.config.updated';
const event = (id: string): CloudEvent => ({
  specversion: '1.0',
  id,
  source: '/test',
  type: 'capacity.config.updated',
  subject: 'config',
  time: new Date(0).toISOString(),
  datacontenttype: 'application/json',
  tenantid: 't1',
  data: {},
});

/** A memory bus whose follows the test can end from outside (a consumer deleted under the process). */
function endableBus(): { bus: EventBus; endFollows(): void; follows(): number } {
  const inner = createMemoryBus();
  const live: Subscription[] = [];
  let follows = 0;
  const bus: EventBus = Object.create(inner) as EventBus;
  bus.follow = async (subject, options) => {
    follows++;
    const followed = await inner.follow(subject, options);
    live.push(followed);
    return followed;
  };
  bus.publish = (subject, e) => inner.publish(subject, e);
  return {
    bus,
    endFollows: () => live.splice(0).forEach((s) => s.unsubscribe()),
    follows: () => follows,
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('keepFollowing', () => {
  it('hands over every event published after it resolved, in order', async () => {
    const { bus } = endableBus();
    const seen: string[] = [];
    const followed = await keepFollowing(bus, SUBJECT, { handle: (e) => void seen.push(e.id) });
    for (const id of ['a', 'b', 'c']) await bus.publish(SUBJECT, event(id));
    await until(() => seen.length === 3);
    expect(seen).toEqual(['a', 'b', 'c']);
    followed.close();
  });

  it('says a feed that ended is a gap, follows again, and goes on handing over events', async () => {
    const { bus, endFollows, follows } = endableBus();
    const seen: string[] = [];
    const said: string[] = [];
    let gaps = 0;
    const followed = await keepFollowing(bus, SUBJECT, {
      handle: (e) => void seen.push(e.id),
      onGap: () => void gaps++,
      onTrouble: (message) => void said.push(message),
      retryMs: 1,
    });
    endFollows();
    await until(() => follows() === 2);
    expect(gaps).toBe(1);
    expect(said).toEqual(['feed ended; following again']);
    await bus.publish(SUBJECT, event('after'));
    await until(() => seen.includes('after'));
    followed.close();
  });

  it('keeps going when a handler fails', async () => {
    const { bus } = endableBus();
    const seen: string[] = [];
    const said: string[] = [];
    const followed = await keepFollowing(bus, SUBJECT, {
      handle: (e) => {
        if (e.id === 'bad') throw new Error('handler failed');
        seen.push(e.id);
      },
      onTrouble: (message) => void said.push(message),
    });
    await bus.publish(SUBJECT, event('bad'));
    await bus.publish(SUBJECT, event('good'));
    await until(() => seen.includes('good'));
    expect(said).toEqual(['an event handler failed']);
    followed.close();
  });

  it('stops following once closed, without calling a gap', async () => {
    const { bus, follows } = endableBus();
    let gaps = 0;
    const followed = await keepFollowing(bus, SUBJECT, {
      handle: () => {},
      onGap: () => void gaps++,
      retryMs: 1,
    });
    followed.close();
    await new Promise((r) => setTimeout(r, 30));
    expect(gaps).toBe(0);
    expect(follows()).toBe(1);
  });
});
