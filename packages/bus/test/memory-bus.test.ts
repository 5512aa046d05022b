import { describe, expect, it } from 'vitest';
import { describeEventBus } from './support/contract.js';
import { createMemoryBus } from '../src/memory-bus.js';
import { DEFAULT_REPLAY_LOG } from '../src/replay-log.js';
import type { CloudEvent } from '../src/types.js';

describeEventBus('memory', async () => createMemoryBus({ replayLog: DEFAULT_REPLAY_LOG }));

describe('memory bus', () => {
  it('gives each subscriber its own copy of the event', async () => {
    const bus = createMemoryBus();
    const subject = 'tenant.copy.restaurant.tables.status';
    const first = bus.subscribe(subject)[Symbol.asyncIterator]();
    const second = bus.subscribe(subject)[Symbol.asyncIterator]();
    const event: CloudEvent = {
      specversion: '1.0',
      id: 'e1',
      source: '/test',
      type: 'tables.status',
      subject: 't1',
      time: new Date(0).toISOString(),
      datacontenttype: 'application/json',
      tenantid: 'copy',
      data: { stato: 'libero' },
    };
    await bus.publish(subject, event);
    const a = await first.next();
    const b = await second.next();
    (a.value as CloudEvent<{ stato: string }>).data.stato = 'changed';
    expect((b.value as CloudEvent<{ stato: string }>).data.stato).toBe('libero');
    expect(event.data).toEqual({ stato: 'libero' });
    await bus.close();
  });
});

describe('memory bus durable consumers', () => {
  const event = (id: string): CloudEvent => ({
    specversion: '1.0',
    id,
    source: '/test',
    type: 'bookings.created',
    subject: 'b1',
    time: new Date(0).toISOString(),
    datacontenttype: 'application/json',
    tenantid: 'dur',
    data: {},
  });
  const subject = 'tenant.dur.restaurant.bookings.created';

  it('resolves a publish only once the consumer handled the event, and rejects it when the handler failed', async () => {
    const bus = createMemoryBus();
    const handled: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    await bus.consume('tenant.*.restaurant.>', {
      durable: 'ospiti',
      handle: async (e) => {
        if (e.id === 'bad') throw new Error('handler failed (test)');
        await gate;
        handled.push(e.id);
      },
    });
    let published = false;
    const publishing = bus.publish(subject, event('e1')).then(() => (published = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(published).toBe(false);
    release();
    await publishing;
    expect(handled).toEqual(['e1']);
    await expect(bus.publish(subject, event('bad'))).rejects.toThrow(/Consumer ospiti failed on event bad/);
  });

  it('hands each event to one holder of a name, the next one once the first stopped', async () => {
    const bus = createMemoryBus();
    const seen: string[] = [];
    const first = await bus.consume(subject, {
      durable: 'x',
      handle: async (e) => void seen.push(`a:${e.id}`),
    });
    await bus.consume(subject, { durable: 'x', handle: async (e) => void seen.push(`b:${e.id}`) });
    await bus.publish(subject, event('1'));
    await first.stop();
    await bus.publish(subject, event('2'));
    expect(seen).toEqual(['a:1', 'b:2']);
  });
});
