import { markArrival } from './arrival-subject.js';
import { BusUnavailableError } from './errors.js';
import { isPublishSubject, isSubjectPattern, subjectMatches } from './subject-matcher.js';
import { createSubscriptionQueue, type SubscriptionQueue } from './subscription-queue.js';
import type { BusStatus, CloudEvent, EventBus, SubscribeOptions, Subscription } from './types.js';

interface Entry {
  pattern: string;
  queue: SubscriptionQueue;
}

/**
 * The in-process bus of embedded mode: NATS subject semantics (`*`, `>`) without a server. `publish`
 * delivers to the subscriptions that exist at that moment and resolves (there is no storage: an event
 * published with no subscriber is gone, like a core NATS message). Events are copied through JSON, as on
 * the wire, so subscribers never share objects with the publisher.
 */
export function createMemoryBus(): EventBus {
  const entries = new Set<Entry>();
  let closed = false;

  return {
    async publish(subject: string, event: CloudEvent): Promise<void> {
      if (!isPublishSubject(subject)) throw new TypeError(`Invalid publish subject: ${subject}`);
      if (closed) throw new BusUnavailableError('Event bus closed');
      const json = JSON.stringify(event);
      for (const entry of [...entries]) {
        if (subjectMatches(entry.pattern, subject))
          entry.queue.push(markArrival(JSON.parse(json) as CloudEvent, subject));
      }
    },

    subscribe(pattern: string, options: SubscribeOptions = {}): Subscription {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      const entry: Entry = {
        pattern,
        queue: createSubscriptionQueue({ ...options, onEnd: () => entries.delete(entry) }),
      };
      if (closed) entry.queue.end('discard');
      else entries.add(entry);
      return entry.queue.subscription;
    },

    async follow(pattern: string, options: SubscribeOptions = {}): Promise<Subscription> {
      // Nothing is stored and nothing disconnects in-process: following is subscribing.
      return this.subscribe(pattern, options);
    },

    async ping(): Promise<number> {
      if (closed) throw new BusUnavailableError('Event bus closed');
      return 0;
    },

    status(): BusStatus {
      return { connected: !closed, reconnects: 0 };
    },

    async close(): Promise<void> {
      closed = true;
      for (const entry of [...entries]) entry.queue.end('drain');
    },
  };
}
