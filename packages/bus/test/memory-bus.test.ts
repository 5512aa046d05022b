import { describe, expect, it } from 'vitest';
import { describeEventBus } from '../src/contract.js';
import { createMemoryBus } from '../src/memory-bus.js';
import type { CloudEvent } from '../src/types.js';

describeEventBus('memory', async () => createMemoryBus());

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
