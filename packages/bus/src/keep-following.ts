import type { CloudEvent, EventBus, Subscription } from './types.js';

export interface KeepFollowingOptions {
  /** Each event, in the order it arrived; awaited before the next. A failure is said (onTrouble) and skipped. */
  handle(event: CloudEvent): Promise<void> | void;
  /**
   * The followed feed ended and is followed again: events published between the two may never arrive. What was
   * kept from the events (a cache they keep current) is to be dropped.
   */
  onGap?(): void;
  /** Said once per failed or ended follow, before the next try. */
  onTrouble?(message: string, error?: unknown): void;
  maxPending?: number;
  /** Wait before following again (ms). */
  retryMs?: number;
}

export interface KeptFollow {
  close(): void;
}

const RETRY_MS = 1000;

/**
 * Follows `subject` (`bus.follow`: gap-free across the bus's own reconnects) for as long as it is open: should the
 * followed feed end anyway (the bus closed under it, its consumer deleted), it says so through `onGap` and follows
 * again. Resolves once the first follow is in place, so nothing published after it is missed.
 */
export async function keepFollowing(
  bus: EventBus,
  subject: string,
  options: KeepFollowingOptions,
): Promise<KeptFollow> {
  const follow = () =>
    bus.follow(subject, options.maxPending === undefined ? {} : { maxPending: options.maxPending });
  let current: Subscription | undefined = await follow();
  let closed = false;
  void (async () => {
    while (!closed) {
      if (current) {
        for await (const event of current) {
          // An async wrapper turns a synchronous throw into a rejection: one bad event never ends the feed.
          await (async () => options.handle(event))().catch((error: unknown) =>
            options.onTrouble?.('an event handler failed', error),
          );
          if (closed) break;
        }
        if (closed) break;
        options.onGap?.();
        options.onTrouble?.('feed ended; following again');
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? RETRY_MS));
      if (closed) break;
      try {
        current = await follow();
      } catch (error) {
        current = undefined;
        options.onTrouble?.('could not follow the bus; retrying', error);
      }
    }
  })();
  return {
    close() {
      closed = true;
      current?.unsubscribe();
    },
  };
}
