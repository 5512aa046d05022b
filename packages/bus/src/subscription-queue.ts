import type { CloudEvent, SubscribeOptions, Subscription } from './types.js';

/** Default of `SubscribeOptions.maxPending`. */
export const DEFAULT_MAX_PENDING = 1000;

/** How a subscription ends: `drain` delivers what is already buffered first, `discard` drops it. */
type EndMode = 'drain' | 'discard';

/** The producer side of a subscription, used by the bus implementations. */
export interface SubscriptionQueue {
  readonly subscription: Subscription;
  /** Buffers an event for the consumer; on overflow calls `onOverflow` and ends the subscription. */
  push(event: CloudEvent): void;
  /** Ends the subscription (idempotent). */
  end(mode: EndMode): void;
  readonly ended: boolean;
}

interface Waiter {
  resolve(result: IteratorResult<CloudEvent>): void;
}

/**
 * A bounded single-consumer queue exposed as a Subscription. `onEnd` runs once when the subscription ends
 * for any reason (unsubscribe, `break` out of `for await`, overflow, close), so the bus can release what it
 * holds for it.
 */
export function createSubscriptionQueue(
  options: SubscribeOptions & { onEnd: () => void },
): SubscriptionQueue {
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  if (!Number.isInteger(maxPending) || maxPending < 1)
    throw new RangeError('maxPending must be a positive integer');
  const buffer: CloudEvent[] = [];
  const waiters: Waiter[] = [];
  let ended = false;

  const end = (mode: EndMode) => {
    if (ended) return;
    ended = true;
    if (mode === 'discard') buffer.length = 0;
    for (const waiter of waiters.splice(0)) waiter.resolve({ done: true, value: undefined });
    options.onEnd();
  };

  const push = (event: CloudEvent) => {
    if (ended) return;
    const waiter = waiters.shift();
    if (waiter) {
      waiter.resolve({ done: false, value: event });
      return;
    }
    if (buffer.length >= maxPending) {
      end('discard');
      try {
        options.onOverflow?.();
      } catch {
        // A failing overflow listener must not break delivery to the other subscribers.
      }
      return;
    }
    buffer.push(event);
  };

  const iterator: AsyncIterator<CloudEvent> = {
    next() {
      const event = buffer.shift();
      if (event !== undefined) return Promise.resolve({ done: false, value: event });
      if (ended) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => waiters.push({ resolve }));
    },
    return() {
      end('discard');
      return Promise.resolve({ done: true, value: undefined });
    },
  };

  const subscription: Subscription = {
    unsubscribe: () => end('discard'),
    [Symbol.asyncIterator]: () => iterator,
  };

  return {
    subscription,
    push,
    end,
    get ended() {
      return ended;
    },
  };
}
