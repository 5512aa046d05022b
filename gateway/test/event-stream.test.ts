import { describe, expect, it } from 'vitest';
import { buildEvent, createMemoryBus, natsSubject } from '@coperto/bus';
import { trustedTenantId } from '@coperto/auth';
import { openEventStream } from '../src/subscriptions/event-stream.js';
import { createSocketBudget } from '../src/subscriptions/socket-budget.js';

describe('event stream of one subscription', () => {
  const bus = createMemoryBus();

  it('delivers an event published twice (at-least-once relay) only once', async () => {
    const tenantId = trustedTenantId('t_dupes');
    const subject = natsSubject(tenantId, 'tables.status');
    const stream = openEventStream({
      bus,
      subject,
      accept: () => true,
      budget: createSocketBudget({
        limits: { maxPendingEvents: 100, maxBufferedBytes: 1 << 20 },
        bufferedAmount: () => 0,
        onExceeded: () => {},
      }),
    });
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
    await bus.publish(subject, first.event);
    await bus.publish(subject, first.event);
    await bus.publish(subject, second.event);
    const a = await stream.next();
    const b = await stream.next();
    expect([a.value?.id, b.value?.id]).toEqual([first.event.id, second.event.id]);
    await stream.return();
    expect((await stream.next()).done).toBe(true);
  });
});
