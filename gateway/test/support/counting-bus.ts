import type { EventBus, Subscription } from '@coperto/bus';

/** An EventBus wrapper that counts the open subscriptions per subject, to see what a test leaves behind. */
export interface CountingBus {
  bus: EventBus;
  /** Subscriptions on `subject` not yet released (unsubscribed or ended). */
  open(subject: string): number;
}

export function countingBus(inner: EventBus): CountingBus {
  const counts = new Map<string, number>();
  const change = (subject: string, delta: number) => counts.set(subject, (counts.get(subject) ?? 0) + delta);
  const bus: EventBus = {
    publish: (subject, event) => inner.publish(subject, event),
    ping: (timeoutMs) => inner.ping(timeoutMs),
    status: () => inner.status(),
    close: () => inner.close(),
    follow: (subject, options) => inner.follow(subject, options),
    consume: (subject, options) => inner.consume(subject, options),
    replay: (subject, afterId, options) => inner.replay(subject, afterId, options),
    subscribe(subject, options): Subscription {
      const subscription = inner.subscribe(subject, options);
      change(subject, 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        change(subject, -1);
      };
      return {
        unsubscribe() {
          release();
          subscription.unsubscribe();
        },
        [Symbol.asyncIterator]() {
          const iterator = subscription[Symbol.asyncIterator]();
          return {
            async next() {
              const result = await iterator.next();
              if (result.done) release();
              return result;
            },
            async return() {
              release();
              return (await iterator.return?.()) ?? { done: true, value: undefined };
            },
          };
        },
      };
    },
  };
  return { bus, open: (subject) => counts.get(subject) ?? 0 };
}
