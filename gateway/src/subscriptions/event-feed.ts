import { arrivalSubject, createMemoryBus, type EventBus, type Subscription } from '@coperto/bus';
import type { Logger } from '@coperto/server-kit';
import { routeEvent } from './event-route.js';

/** Every restaurant event of every tenant: the gateway follows them all once and fans out in-process. */
export const ALL_RESTAURANT_EVENTS = 'tenant.*.restaurant.>';
const RETRY_MS = 1000;

export interface EventFeed {
  /** The in-process bus the subscriptions of this gateway subscribe to. */
  readonly bus: EventBus;
  close(): Promise<void>;
}

/**
 * One gap-free feed per gateway process: `bus.follow` (a JetStream ordered consumer in distributed mode) keeps
 * delivering across NATS outages without losing the events published while it reconnects, and an in-process
 * bus fans them out to the sockets, so a thousand subscriptions cost one consumer on the server. Should the
 * feed end (the bus closed under it), it follows again. Each event is routed by the subject it arrived on and
 * dropped (logged) when its envelope names another tenant or type (event-route.ts).
 */
export async function startEventFeed(source: EventBus, logger: Logger): Promise<EventFeed> {
  const local = createMemoryBus();
  let current: Subscription | undefined;
  let closed = false;

  const follow = () => source.follow(ALL_RESTAURANT_EVENTS, { maxPending: 100_000 });
  const pump = async (followed: Subscription) => {
    for await (const event of followed) {
      const subject = arrivalSubject(event);
      const route = routeEvent(subject, event);
      if (!route.ok) {
        // Never the data: only what identifies the event and why it went nowhere.
        logger.warn('event dropped: its envelope disagrees with its subject', {
          reason: route.reason,
          subject,
          id: event.id,
          type: event.type,
          tenantid: event.tenantid,
        });
        continue;
      }
      await local.publish(route.subject, event).catch(() => {});
    }
  };
  current = await follow();
  void (async () => {
    let followed = current;
    while (!closed) {
      await pump(followed).catch(() => {});
      if (closed) break;
      logger.warn('event feed ended; following again');
      await new Promise((r) => setTimeout(r, RETRY_MS));
      try {
        followed = current = await follow();
      } catch (error) {
        logger.warn('event feed could not follow the bus; retrying', { error });
      }
    }
  })();

  return {
    bus: local,
    async close() {
      closed = true;
      current?.unsubscribe();
      await local.close();
    },
  };
}
