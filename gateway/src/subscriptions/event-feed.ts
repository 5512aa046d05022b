import { arrivalSubject, createMemoryBus, keepFollowing, type EventBus } from '@coperto/bus';
import type { Logger } from '@coperto/server-kit';
import { routeEvent } from './event-route.js';

/** Every restaurant event of every tenant: the gateway follows them all once and fans out in-process. */
export const ALL_RESTAURANT_EVENTS = 'tenant.*.restaurant.>';

export interface EventFeed {
  /** The in-process bus the subscriptions of this gateway subscribe to. */
  readonly bus: EventBus;
  close(): Promise<void>;
}

/**
 * One gap-free feed per gateway process: `bus.follow` (a JetStream ordered consumer in distributed mode) keeps
 * delivering across NATS outages without losing the events published while it reconnects, and an in-process
 * bus fans them out to the sockets, so a thousand subscriptions cost one consumer on the server. Should the
 * feed end (the bus closed under it), it follows again (keepFollowing). Each event is routed by the subject it arrived on and
 * dropped (logged) when its envelope names another tenant or type (event-route.ts).
 */
export async function startEventFeed(source: EventBus, logger: Logger): Promise<EventFeed> {
  const local = createMemoryBus();
  const feed = await keepFollowing(source, ALL_RESTAURANT_EVENTS, {
    maxPending: 100_000,
    async handle(event) {
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
        return;
      }
      await local.publish(route.subject, event).catch(() => {});
    },
    onTrouble: (message, error) => logger.warn(`event feed: ${message}`, error ? { error } : {}),
  });
  return {
    bus: local,
    async close() {
      feed.close();
      await local.close();
    },
  };
}
