/** Limits on what one WebSocket may hold in the gateway's memory. */
export interface SocketLimits {
  /** Events accepted for the socket's subscriptions and not yet handed to the socket. Default 1000. */
  maxPendingEvents: number;
  /** Bytes written to the socket and not yet taken by the kernel (`ws` bufferedAmount). Default 1 MiB. */
  maxBufferedBytes: number;
  /** Subscriptions open at once on one socket; a further one is refused with an error. Default 100. */
  maxSubscriptions: number;
}

export const DEFAULT_SOCKET_LIMITS: Readonly<SocketLimits> = Object.freeze({
  maxPendingEvents: 1000,
  maxBufferedBytes: 1024 * 1024,
  maxSubscriptions: 100,
});

/**
 * The bounded delivery queue of one socket, shared by all its subscriptions: every event accepted for the
 * socket is counted until graphql-ws takes it for sending. graphql-ws sends one event of a subscription at
 * a time and waits until the socket took it, so a client that stops reading makes the count grow; past
 * `maxPendingEvents`, or when the socket's own buffer passes `maxBufferedBytes`, the budget is exceeded
 * once: `onExceeded` runs (it closes the socket) and every stream of the socket ends, releasing what it holds.
 */
export interface SocketBudget {
  /** Counts one more pending event; false (and the budget exceeded) when the socket is over a limit. */
  admit(): boolean;
  /** `count` pending events were handed to the socket or dropped. */
  release(count?: number): void;
  /** Marks the budget exceeded (e.g. a bus-level overflow) and runs `onExceeded` once. */
  exceed(): void;
  /** Registers what to stop when the budget is exceeded or the socket closes; returns the unregistration. */
  track(stop: () => void): () => void;
  /** Stops every tracked stream (the socket closed). Idempotent. */
  stopAll(): void;
  readonly pending: number;
  readonly exceeded: boolean;
  /** Streams currently open on the socket. */
  readonly streams: number;
}

export interface SocketBudgetOptions {
  limits: Pick<SocketLimits, 'maxPendingEvents' | 'maxBufferedBytes'>;
  /** The socket's bytes not yet written to the kernel. */
  bufferedAmount: () => number;
  /** Runs once, when a limit is passed: close the socket. */
  onExceeded: () => void;
}

/** Creates the budget of one socket. */
export function createSocketBudget(options: SocketBudgetOptions): SocketBudget {
  const stops = new Set<() => void>();
  let pending = 0;
  let exceeded = false;

  const stopAll = () => {
    for (const stop of [...stops]) stop();
    stops.clear();
  };
  const exceed = () => {
    if (exceeded) return;
    exceeded = true;
    try {
      options.onExceeded();
    } finally {
      stopAll();
    }
  };

  return {
    admit() {
      if (exceeded) return false;
      if (
        pending >= options.limits.maxPendingEvents ||
        options.bufferedAmount() > options.limits.maxBufferedBytes
      ) {
        exceed();
        return false;
      }
      pending++;
      return true;
    },
    release(count = 1) {
      pending = Math.max(0, pending - count);
    },
    exceed,
    track(stop) {
      if (exceeded) {
        stop();
        return () => {};
      }
      stops.add(stop);
      return () => stops.delete(stop);
    },
    stopAll,
    get pending() {
      return pending;
    },
    get exceeded() {
      return exceeded;
    },
    get streams() {
      return stops.size;
    },
  };
}
