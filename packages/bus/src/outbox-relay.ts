import type { OutboxSource, PendingOutbox } from '@coperto/store';
import { BusUnavailableError } from './errors.js';
import { sleep } from './timeout.js';
import type { CloudEvent, EventBus } from './types.js';

export interface OutboxRelayOptions {
  source: OutboxSource;
  bus: EventBus;
  /** Pause between rounds when there is nothing more to do. Default 250. */
  pollIntervalMs?: number;
  /** Records claimed per round. Default 100. */
  batchSize?: number;
  /** How long a claim keeps other relays off a record. Default 10000. */
  leaseMs?: number;
  /** Records published in parallel within a round (events of one record are always sequential). Default 16. */
  concurrency?: number;
  /** Longest pause after failing rounds (the pause doubles from `pollIntervalMs`). Default 5000. */
  maxBackoffMs?: number;
  /** Told about every failure (store or bus); the relay carries on. */
  onError?: (error: unknown) => void;
}

export interface OutboxRelayStats {
  /** ISO time of the last round that ran without error (also an empty one). */
  lastSuccess: string | null;
  /** Message of the last error (kept after later successes; compare `lastErrorAt`). */
  lastError: string | null;
  /** ISO time of the last error. */
  lastErrorAt: string | null;
  /** Events published since start (a re-publish after a lost acknowledgement counts again). */
  published: number;
}

export interface OutboxRelay {
  /** Starts polling (no-op when running or stopped). */
  start(): void;
  /** Runs a round now instead of at the next poll (call after a write). Ignored while backing off. */
  kick(): void;
  /** Stops polling and waits for the current round to end. Idempotent. */
  stop(): Promise<void>;
  stats(): OutboxRelayStats;
  /** Records with pending events (health: queue length). */
  countPending(): Promise<number>;
}

interface RecordOutcome {
  /** The publish failure that stopped this record, or null. */
  error: unknown;
  /** The store did not take the acknowledgement (the events will be published again). */
  ackFailed: boolean;
}

/**
 * Publishes the events that writes left in the store's outboxes (at least once). Each round claims pending
 * records, publishes each record's events in write order (stopping at a record's first failure so order
 * holds), then acknowledges the published ones. An event stays in the store until the bus acknowledged it;
 * if the process dies between the PubAck and the acknowledgement it is published again with the same id, and
 * JetStream (Nats-Msg-Id window) or the consumer drops the duplicate. While the bus or the store fails, rounds
 * back off; the loop itself never throws.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { source, bus } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 10_000;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const maxBackoffMs = Math.max(pollIntervalMs, options.maxBackoffMs ?? 5000);

  const stats: OutboxRelayStats = { lastSuccess: null, lastError: null, lastErrorAt: null, published: 0 };
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let loop: Promise<void> = Promise.resolve();
  let wake = new AbortController();
  let kicked = false;
  let backingOff = false;

  const report = (error: unknown) => {
    stats.lastError = error instanceof Error ? error.message : String(error);
    stats.lastErrorAt = new Date().toISOString();
    try {
      options.onError?.(error);
    } catch {
      // A failing listener must not stop the relay.
    }
  };

  /** Publishes one record's events in order, then acknowledges the ones the bus took. */
  const relayRecord = async (pending: PendingOutbox, busDown: { value: boolean }): Promise<RecordOutcome> => {
    const publishedIds: string[] = [];
    let error: unknown = null;
    let ackFailed = false;
    for (const message of pending.messages) {
      if (busDown.value || state === 'stopped') break;
      try {
        await bus.publish(message.subject, message.body as CloudEvent);
        publishedIds.push(message.id);
      } catch (e) {
        // The bus is down: leave the rest of this round to a later one. Any other failure (a message the bus
        // refuses) only holds back this record.
        if (e instanceof BusUnavailableError) busDown.value = true;
        error = e;
        break;
      }
    }
    if (publishedIds.length > 0) {
      stats.published += publishedIds.length;
      try {
        await source.acknowledge(pending, publishedIds);
      } catch (e) {
        report(e);
        ackFailed = true;
      }
    }
    return { error, ackFailed };
  };

  /** One round; returns whether it failed and whether it claimed a full batch (more may be waiting). */
  const round = async (): Promise<{ failed: boolean; full: boolean }> => {
    let claimed: PendingOutbox[];
    try {
      claimed = await source.claimPending(batchSize, leaseMs);
    } catch (error) {
      report(error);
      return { failed: true, full: false };
    }
    const busDown = { value: false };
    const outcomes = await mapLimit(claimed, concurrency, (pending) => relayRecord(pending, busDown));
    const errors = outcomes.filter((o) => o.error !== null).map((o) => o.error);
    for (const error of errors) report(error);
    const ackFailed = outcomes.some((o) => o.ackFailed);
    if (errors.length === 0 && !ackFailed) stats.lastSuccess = new Date().toISOString();
    return { failed: busDown.value || ackFailed, full: claimed.length >= batchSize };
  };

  const run = async () => {
    let backoff = pollIntervalMs;
    while (state === 'running') {
      wake = new AbortController();
      kicked = false;
      let outcome = { failed: true, full: false };
      try {
        outcome = await round();
      } catch (error) {
        report(error);
      }
      if (state !== 'running') break;
      if (outcome.failed) {
        // Kicks are ignored while backing off: only stop() cuts the pause short.
        backingOff = true;
        wake = new AbortController();
        await sleep(backoff, wake.signal);
        backingOff = false;
        backoff = Math.min(backoff * 2, maxBackoffMs);
      } else {
        backoff = pollIntervalMs;
        if (!outcome.full && !kicked) await sleep(pollIntervalMs, wake.signal);
      }
    }
  };

  return {
    start() {
      if (state !== 'idle') return;
      state = 'running';
      loop = run();
    },
    kick() {
      if (state !== 'running' || backingOff) return;
      kicked = true;
      wake.abort();
    },
    async stop() {
      if (state === 'running') wake.abort();
      state = 'stopped';
      await loop;
    },
    stats: () => ({ ...stats }),
    countPending: () => source.countPending(),
  };
}

/** Maps with at most `limit` calls in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
