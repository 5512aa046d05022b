import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { createEarlyPublishes } from '../src/outbox/early-publishes.js';
import { BusUnavailableError } from '../src/errors.js';
import { buildEvent } from '../src/events.js';
import { createMemoryBus } from '../src/memory-bus.js';
import type { EventBus } from '../src/types.js';

const event = (n: number) =>
  buildEvent({
    tenantId: trustedTenantId('early'),
    type: 'tables.status',
    source: '/test/early',
    subject: `T${n}`,
    data: { n },
  });

/** A MemoryBus that counts publishes and refuses them while `down`. */
function countingBus() {
  const inner = createMemoryBus();
  const state = { published: 0, down: false };
  const bus: EventBus = {
    ...inner,
    async publish(subject, e) {
      if (state.down) throw new BusUnavailableError('down');
      state.published++;
      await inner.publish(subject, e);
    },
  };
  return { bus, state };
}

describe('early publishes', () => {
  it('publishes at once; the round takes the answer once, and nothing is published twice', async () => {
    const { bus, state } = countingBus();
    const early = createEarlyPublishes(bus);
    const { message, event: e } = event(1);
    early.publish(message.id, message.subject, e);
    early.publish(message.id, message.subject, e);
    expect(state.published).toBe(1);
    expect(await early.took(message.id)).toBe(true);
    // Taken: a second claim of the same event publishes it as usual.
    expect(await early.took(message.id)).toBe(false);
    expect(await early.took('never-published')).toBe(false);
  });

  it('an early publish the bus refused is left to the round', async () => {
    const { bus, state } = countingBus();
    const early = createEarlyPublishes(bus);
    state.down = true;
    const { message, event: e } = event(2);
    early.publish(message.id, message.subject, e);
    expect(await early.took(message.id)).toBe(false);
  });

  it('forgets the oldest past its bound, and everything on clear', async () => {
    const { bus } = countingBus();
    const early = createEarlyPublishes(bus, 2);
    const events = [event(1), event(2), event(3)];
    for (const { message, event: e } of events) early.publish(message.id, message.subject, e);
    expect(await early.took(events[0]!.message.id)).toBe(false);
    expect(await early.took(events[2]!.message.id)).toBe(true);
    early.clear();
    expect(await early.took(events[1]!.message.id)).toBe(false);
  });

  it('reports the answers it holds against its bound, and those it forgot for it', async () => {
    const { bus } = countingBus();
    const early = createEarlyPublishes(bus, 2);
    const events = [event(1), event(2), event(3), event(4)];
    for (const { message, event: e } of events) early.publish(message.id, message.subject, e);
    expect(early.stats()).toEqual({ entries: 2, capacity: 2, evictions: 2 });
    await early.took(events[3]!.message.id);
    expect(early.stats()).toEqual({ entries: 1, capacity: 2, evictions: 2 });
  });
});
