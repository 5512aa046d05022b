import { describe, expect, it, vi } from 'vitest';
import { buildEvent, createMemoryBus, natsSubject } from '@coperto/bus';
import { trustedTenantId } from '@coperto/auth';
import { openEventStream } from '../src/subscriptions/event-stream.js';
import { countingBus } from './support/counting-bus.js';
import { tableStatusEvent } from './support/events.js';

describe('event stream of one subscription group', () => {
  const subject = natsSubject('t_stream', 'tables.status');
  const event = (id: string) => tableStatusEvent('t_stream', { id }).event;

  it('delivers an event published twice (at-least-once relay) only once', async () => {
    const bus = createMemoryBus();
    const tenantId = trustedTenantId('t_dupes');
    const dupes = natsSubject(tenantId, 'tables.status');
    const stream = openEventStream({ bus, subject: dupes, accept: () => true, onOverflow: () => {} });
    const first = buildEvent({
      tenantId,
      type: 'tables.status',
      source: 'test',
      subject: 't1',
      data: { n: 1 },
    });
    const second = buildEvent({
      tenantId,
      type: 'tables.status',
      source: 'test',
      subject: 't1',
      data: { n: 2 },
    });
    await bus.publish(dupes, first.event);
    await bus.publish(dupes, first.event);
    await bus.publish(dupes, second.event);
    const a = await stream.next();
    const b = await stream.next();
    expect([a.value?.id, b.value?.id]).toEqual([first.event.id, second.event.id]);
    await stream.return();
    expect((await stream.next()).done).toBe(true);
    await bus.close();
  });

  it('yields the accepted events in order and skips the others', async () => {
    const bus = createMemoryBus();
    const stream = openEventStream({
      bus,
      subject,
      accept: (e) => e.subject !== 'drop',
      onOverflow: () => {},
    });
    for (const id of ['a', 'drop', 'b']) await bus.publish(subject, event(id));
    expect([(await stream.next()).value?.subject, (await stream.next()).value?.subject]).toEqual(['a', 'b']);
    await stream.return();
    await bus.close();
  });

  it('return() releases the bus subscription at once, also while a next() is waiting', async () => {
    const memory = createMemoryBus();
    const counting = countingBus(memory);
    const stream = openEventStream({ bus: counting.bus, subject, accept: () => true, onOverflow: () => {} });
    expect(counting.open(subject)).toBe(1);
    const waiting = stream.next();
    await stream.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(counting.open(subject)).toBe(0);
    await memory.close();
  });

  it('a reader that falls more than busMaxPending events behind is told, and the stream ends', async () => {
    const memory = createMemoryBus();
    const counting = countingBus(memory);
    const onOverflow = vi.fn();
    const stream = openEventStream({
      bus: counting.bus,
      subject,
      accept: () => true,
      onOverflow,
      busMaxPending: 3,
    });
    for (let i = 0; i < 5; i++) await memory.publish(subject, event(`e${i}`));
    expect(onOverflow).toHaveBeenCalledTimes(1);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(counting.open(subject)).toBe(0);
    await memory.close();
  });
});
