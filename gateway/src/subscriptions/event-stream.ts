import type { CloudEvent, EventBus } from '@coperto/bus';
import { createRecentIds, type RecentIdsTally } from './recent-ids.js';

export interface EventStreamOptions {
  bus: EventBus;
  /** NATS subject (pattern) to follow. */
  subject: string;
  /** Events it refuses are skipped. Must not throw. */
  accept: (event: CloudEvent) => boolean;
  /** More than `busMaxPending` events waited unread: the reader fell behind the bus. The stream ends. */
  onOverflow: () => void;
  /** Events the bus holds for the stream until it is read. Default the bus's. */
  busMaxPending?: number;
  /** Where the ids it remembers are counted (the subscription server's bounded state). */
  recentIds?: RecentIdsTally;
}

/** An async iterator whose `return()` ends it at once, also while a `next()` is waiting. */
export interface EventStream extends AsyncIterableIterator<CloudEvent> {
  return(): Promise<IteratorResult<CloudEvent>>;
  /** The subject it follows and the events it yields of it: what a replay of the same field reads. */
  readonly subject: string;
  accepts(event: CloudEvent): boolean;
}

/** Whether a subscription's source stream is one of ours (a field of events.graphql), so it can be replayed. */
export function isEventStream(value: unknown): value is EventStream {
  return typeof value === 'object' && value !== null && 'subject' in value && 'accepts' in value;
}

/**
 * Follows a bus subject for one subscription group (subscription-groups.ts): the events `accept` takes, each
 * id once (the bus delivers at least once). A view over the bus subscription, so what waits unread is bounded
 * by the bus's `maxPending`. Ending it (`return()`, when the group's last member leaves) releases the bus
 * subscription, also while a `next()` is waiting. Not an async generator on purpose: a generator suspended
 * in an `await` would only see `return()` after the next event, so an idle subscription would never end.
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  const subscription = options.bus.subscribe(options.subject, {
    ...(options.busMaxPending === undefined ? {} : { maxPending: options.busMaxPending }),
    onOverflow: options.onOverflow,
  });
  const events = subscription[Symbol.asyncIterator]();
  const recent = createRecentIds(undefined, options.recentIds);

  const stream: EventStream = {
    subject: options.subject,
    accepts: options.accept,
    async next() {
      for (;;) {
        const result = await events.next();
        if (result.done) {
          recent.release();
          return { done: true, value: undefined };
        }
        const event = result.value;
        if (options.accept(event) && !recent.seenBefore(event.id)) return { done: false, value: event };
      }
    },
    return() {
      subscription.unsubscribe();
      recent.release();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw(error?: unknown) {
      subscription.unsubscribe();
      recent.release();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
