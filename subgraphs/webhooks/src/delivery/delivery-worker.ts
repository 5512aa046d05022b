import type { DeliveryQueue } from './delivery-queue.js';
import { deliverOne, type DeliverDeps } from './deliver-one.js';

export interface DeliveryWorkerOptions extends DeliverDeps {
  queue: DeliveryQueue;
  /** How long a claimed delivery is this instance's alone: longer than an attempt (10 s) and its writes. */
  leaseMs?: number;
  /** How often to look for due deliveries when not woken (a new one taken in by this instance wakes it). */
  pollMs?: number;
  /** Due entries read per round, and attempts in flight at once. */
  batch?: number;
  onError?: (error: unknown) => void;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for due deliveries now (this instance just queued one). */
  kick(): void;
  /** Stops looking and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Every instance runs one: each round reads the due entries nobody holds and claims each with a lease (one
 * conditional write: exactly one instance wins it), so instances share the work and never send one delivery at
 * once. An instance that dies holding a lease lets it run out; any instance then takes the entry again (at
 * least once).
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const batch = options.batch ?? 16;
  let stopped = true;
  let woken = false;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  const round = async (): Promise<number> => {
    const now = options.now();
    const due = await options.queue.due(now, batch);
    await Promise.all(
      due.map(async (entry) => {
        const claimed = await options.queue.claim(entry, now, leaseMs);
        if (claimed) await deliverOne(options, claimed);
      }),
    );
    return due.length;
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(resolve, pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async () => {
    while (!stopped) {
      woken = false;
      let full = false;
      try {
        full = (await round()) === batch;
      } catch (error) {
        options.onError?.(error);
      }
      if (!full) await sleep();
      wake = undefined;
    }
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    kick() {
      woken = true;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
