import type { CloudEvent, EventBus } from '@coperto/bus';
import { createRecentIds } from './recent-ids.js';
import type { SocketBudget } from './socket-budget.js';

export interface EventStreamOptions {
  bus: EventBus;
  /** NATS subject (pattern) to follow. */
  subject: string;
  /** Events it refuses are dropped at once and never count against the budget. Must not throw. */
  accept: (event: CloudEvent) => boolean;
  /** The budget of the socket the stream delivers to. */
  budget: SocketBudget;
  /** Bus-level buffer (a safety net: the stream takes every event from the bus at once). Default the bus's. */
  busMaxPending?: number;
}

/** An async iterator whose `return()` ends it at once, also while a `next()` is waiting. */
export interface EventStream extends AsyncIterableIterator<CloudEvent> {
  return(): Promise<IteratorResult<CloudEvent>>;
}

/**
 * Follows a bus subject for one subscription of a socket. Events the filter accepts wait in the stream,
 * counted in the socket's budget, until graphql-ws asks for the next one; when the budget is exceeded the
 * stream ends. Ending it (graphql-ws calls `return()` when the client completes or disconnects) releases the
 * bus subscription and the waiting events. Not an async generator on purpose: a generator suspended in an
 * `await` would only see `return()` after the next event, so an idle subscription would never be released.
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  const { budget } = options;
  const queue: CloudEvent[] = [];
  const waiters: Array<(result: IteratorResult<CloudEvent>) => void> = [];
  let done = false;
  let untrack = () => {};

  const subscription = options.bus.subscribe(options.subject, {
    ...(options.busMaxPending === undefined ? {} : { maxPending: options.busMaxPending }),
    onOverflow: () => budget.exceed(),
  });

  const finish = () => {
    if (done) return;
    done = true;
    untrack();
    subscription.unsubscribe();
    budget.release(queue.length);
    queue.length = 0;
    for (const waiter of waiters.splice(0)) waiter({ done: true, value: undefined });
  };
  untrack = budget.track(finish);

  const recent = createRecentIds();
  const pump = async () => {
    try {
      for await (const event of subscription) {
        if (done) break;
        if (!options.accept(event) || recent.seenBefore(event.id)) continue;
        if (!budget.admit()) break;
        const waiter = waiters.shift();
        if (waiter) {
          budget.release();
          waiter({ done: false, value: event });
        } else {
          queue.push(event);
        }
      }
    } finally {
      finish();
    }
  };
  // The loop cannot reject (the bus iterator never throws, `accept` must not); `finally` ends the stream.
  void pump().catch(() => {});

  const stream: EventStream = {
    next() {
      const event = queue.shift();
      if (event !== undefined) {
        budget.release();
        return Promise.resolve({ done: false, value: event });
      }
      if (done) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => waiters.push(resolve));
    },
    return() {
      finish();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw(error?: unknown) {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
