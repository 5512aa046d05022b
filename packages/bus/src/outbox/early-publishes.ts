import type { CloudEvent, EventBus } from '../types.js';

/** What the early publishes hold against their bound (`bounded_state_*{structure="outbox_early_publishes"}`). */
export interface EarlyPublishesStats {
  entries: number;
  capacity: number;
  evictions: number;
}

/** Early publishes whose answer no round took yet, at most; past that the oldest are forgotten (published again). */
const MAX_WAITING = 10_000;

/**
 * Events a write published at once, ahead of its relay's claim (OutboxSource.onAnnounce), by id: the round that
 * claims one takes the bus's answer (`took`) instead of publishing it a second time, so a subscriber sees it once.
 * An early publish the bus refused, or one forgotten past `maxWaiting`, is published by the round as usual.
 */
export function createEarlyPublishes(bus: EventBus, maxWaiting = MAX_WAITING) {
  const waiting = new Map<string, Promise<boolean>>();
  let evictions = 0;
  return {
    publish(id: string, subject: string, event: CloudEvent): void {
      if (waiting.has(id)) return;
      waiting.set(
        id,
        bus.publish(subject, event).then(
          () => true,
          () => false,
        ),
      );
      for (const oldest of waiting.keys()) {
        if (waiting.size <= maxWaiting) break;
        waiting.delete(oldest);
        evictions++;
      }
    },
    /** Whether the event was published early and the bus took it (waits for its answer); forgets it either way. */
    async took(id: string): Promise<boolean> {
      const answer = waiting.get(id);
      if (answer === undefined) return false;
      waiting.delete(id);
      return await answer;
    },
    clear(): void {
      waiting.clear();
    },
    /** Answers waiting for their round against the bound, and how many were forgotten for it. */
    stats: (): EarlyPublishesStats => ({ entries: waiting.size, capacity: maxWaiting, evictions }),
  };
}
