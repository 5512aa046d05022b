import { describe, expect, it, vi } from 'vitest';
import { createMemoryBus, natsSubject } from '@coperto/bus';
import { openEventStream } from '../src/subscriptions/event-stream.js';
import { createSocketBudget } from '../src/subscriptions/socket-budget.js';
import { countingBus } from './support/counting-bus.js';
import { tableStatusEvent } from './support/events.js';

const limits = { maxPendingEvents: 3, maxBufferedBytes: 1000 };

describe('socket budget', () => {
  it('admits up to maxPendingEvents, then is exceeded once and stops every tracked stream', () => {
    const onExceeded = vi.fn();
    const budget = createSocketBudget({ limits, bufferedAmount: () => 0, onExceeded });
    const stopped = vi.fn();
    budget.track(stopped);
    expect([budget.admit(), budget.admit(), budget.admit()]).toEqual([true, true, true]);
    budget.release();
    expect(budget.admit()).toBe(true);
    expect(budget.pending).toBe(3);

    expect(budget.admit()).toBe(false);
    expect(budget.admit()).toBe(false);
    expect(budget.exceeded).toBe(true);
    expect(onExceeded).toHaveBeenCalledTimes(1);
    expect(stopped).toHaveBeenCalledTimes(1);
    expect(budget.streams).toBe(0);
  });

  it('is exceeded when the socket holds more than maxBufferedBytes, whatever the count', () => {
    let buffered = 0;
    const onExceeded = vi.fn();
    const budget = createSocketBudget({ limits, bufferedAmount: () => buffered, onExceeded });
    expect(budget.admit()).toBe(true);
    buffered = 1001;
    expect(budget.admit()).toBe(false);
    expect(onExceeded).toHaveBeenCalledTimes(1);
  });

  it('stops a stream registered after it was exceeded at once', () => {
    const budget = createSocketBudget({ limits, bufferedAmount: () => 0, onExceeded: () => {} });
    budget.exceed();
    const stopped = vi.fn();
    budget.track(stopped);
    expect(stopped).toHaveBeenCalledTimes(1);
  });
});

describe('event stream', () => {
  const subject = natsSubject('t_budget', 'tables.status');
  const event = (id: string) => tableStatusEvent('t_budget', { id }).event;

  it('counts the events nobody took yet, and gives them back in order', async () => {
    const memory = createMemoryBus();
    const budget = createSocketBudget({
      limits: { ...limits, maxPendingEvents: 10 },
      bufferedAmount: () => 0,
      onExceeded: () => {},
    });
    const stream = openEventStream({ bus: memory, subject, accept: () => true, budget });
    for (const id of ['a', 'b', 'c']) await memory.publish(subject, event(id));
    await vi.waitFor(() => expect(budget.pending).toBe(3));

    expect((await stream.next()).value?.subject).toBe('a');
    expect(budget.pending).toBe(2);
    await stream.return();
    expect(budget.pending).toBe(0);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    await memory.close();
  });

  it('never counts refused events', async () => {
    const memory = createMemoryBus();
    const budget = createSocketBudget({ limits, bufferedAmount: () => 0, onExceeded: () => {} });
    const stream = openEventStream({ bus: memory, subject, accept: (e) => e.subject === 'keep', budget });
    for (let i = 0; i < 10; i++) await memory.publish(subject, event(`drop-${i}`));
    await memory.publish(subject, event('keep'));
    expect((await stream.next()).value?.subject).toBe('keep');
    expect(budget.exceeded).toBe(false);
    await stream.return();
    await memory.close();
  });

  it('a consumer that stops taking events exceeds the budget: the socket is told and the bus released', async () => {
    const memory = createMemoryBus();
    const counting = countingBus(memory);
    const onExceeded = vi.fn();
    const budget = createSocketBudget({ limits, bufferedAmount: () => 0, onExceeded });
    const first = openEventStream({ bus: counting.bus, subject, accept: () => true, budget });
    const second = openEventStream({ bus: counting.bus, subject, accept: () => true, budget });
    expect(counting.open(subject)).toBe(2);

    // Two streams share the socket's budget of 3: two events each pass it.
    await memory.publish(subject, event('1'));
    await memory.publish(subject, event('2'));
    await vi.waitFor(() => expect(onExceeded).toHaveBeenCalledTimes(1));
    expect(counting.open(subject)).toBe(0);
    expect(await first.next()).toEqual({ done: true, value: undefined });
    expect(await second.next()).toEqual({ done: true, value: undefined });
    expect(budget.pending).toBe(0);

    // Later events find nothing to fill.
    for (let i = 0; i < 100; i++) await memory.publish(subject, event(`late-${i}`));
    expect(budget.pending).toBe(0);
    await memory.close();
  });

  it('a bus-level overflow exceeds the budget too', async () => {
    const onExceeded = vi.fn();
    const budget = createSocketBudget({ limits, bufferedAmount: () => 0, onExceeded });
    const overflowing = {
      ...createMemoryBus(),
      subscribe: (_subject: string, options?: { onOverflow?: () => void }) => {
        options?.onOverflow?.();
        return {
          unsubscribe: () => {},
          [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true as const, value: undefined }) }),
        };
      },
    };
    const stream = openEventStream({ bus: overflowing, subject, accept: () => true, budget });
    expect(onExceeded).toHaveBeenCalledTimes(1);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
