import { describe, expect, it, vi } from 'vitest';
import { createSocketBudget } from '../src/subscriptions/socket-budget.js';

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
