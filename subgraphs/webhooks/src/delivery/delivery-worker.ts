import { sleep } from '@coperto/async';
import type { DeliveryQueue } from './delivery-queue.js';
import { deliverOne, type DeliverDeps } from './deliver-one.js';

export interface DeliveryWorkerOptions extends DeliverDeps {
  queue: DeliveryQueue;
  /** How long a claimed delivery is this instance's alone: longer than an attempt (10 s) and its writes. */
  leaseMs?: number;
  /** How often to look for due deliveries when not woken (a new one taken in by this instance wakes it). */
  pollMs?: number;
  /** Attempts in flight at once: a slow endpoint holds one of them, never the others' turn. */
  batch?: number;
  onError?: (error: unknown) => void;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for due deliveries now (this instance just queued one). */
  kick(): void;
  /** Stops taking work and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Every instance runs one: it keeps up to `batch` attempts in flight, topping up from the due entries nobody holds,
 * each claimed with a lease (one conditional write: exactly one instance wins it), so instances share the work and
 * never send one delivery at once. An instance that dies holding a lease lets it run out; any instance then takes
 * the entry again (at least once).
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  // Attempts in flight bound an instance's deliveries when each store write waits for a disk commit: 32 drained a
  // backlog at 38 a second on the shared bench machine, 128 at 240 (bench scenario 15).
  const capacity = options.batch ?? 128;
  const inFlight = new Set<Promise<void>>();
  let stopped = true;
  let woken = false;
  /** Cuts the current pause short (a kick, a freed half of the capacity, or stop). */
  let pause: AbortController | undefined;
  let loop: Promise<void> | undefined;

  const rouse = () => {
    woken = true;
    pause?.abort();
  };

  /**
   * Claims what is due, up to the free capacity, and starts each; true when more may be waiting. It reads twice
   * the free capacity and claims a random half of it, so instances reading the same oldest entries mostly claim
   * different ones instead of racing for each. The claims are made side by side: one by one, a round of 32 cost 32
   * store round trips (in embedded mode 32 disk commits, 30 ms each on a busy disk), which capped the deliveries
   * of an instance near 30 a second whatever the endpoints answered.
   */
  const topUp = async (): Promise<boolean> => {
    const free = capacity - inFlight.size;
    if (free <= 0) return false;
    const now = options.now();
    const due = shuffled(await options.queue.due(now, free * 2));
    const claims = await Promise.allSettled(
      due.slice(0, free).map((entry) => options.queue.claim(entry, now, leaseMs)),
    );
    let lost = 0;
    for (const claim of claims) {
      if (claim.status === 'rejected') {
        options.onError?.(claim.reason);
        continue;
      }
      if (!claim.value) {
        lost++;
        continue;
      }
      const work: Promise<void> = deliverOne(options, claim.value)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          inFlight.delete(work);
          // Refill once half the capacity is free: one read of the queue per many attempts, not per attempt.
          if (inFlight.size <= capacity / 2) rouse();
        });
      inFlight.add(work);
    }
    // More may be due: the read was full, or another instance won some claims (the rest of the read is still due).
    return due.length === free * 2 || lost > 0;
  };

  const run = async () => {
    while (!stopped) {
      woken = false;
      let more = false;
      try {
        more = await topUp();
      } catch (error) {
        options.onError?.(error);
      }
      if (more || woken || stopped) continue;
      pause = new AbortController();
      await sleep(pollMs, pause.signal);
    }
    await Promise.allSettled([...inFlight]);
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    kick: rouse,
    async stop() {
      stopped = true;
      pause?.abort();
      await loop;
    },
  };
}

/** Fisher–Yates, in place. */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
