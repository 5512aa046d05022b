import type { OutboxSource, PendingOutbox } from '@coperto/store';
import { BusUnavailableError } from './errors.js';
import { createEarlyPublishes } from './early-publishes.js';
import { PendingAges } from './pending-ages.js';
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
  /**
   * Least time between the starts of two acknowledgements: the rounds published meanwhile are acknowledged together,
   * in one store call (fewer store commands; their records stay leased that much longer). A full batch waiting is
   * acknowledged at once, and so is a waiting one when a round after a write claimed nothing (the write may be to
   * a record the acknowledgement holds: a second change within the interval is not held back by it). Default 50.
   */
  ackIntervalMs?: number;
  /** Longest pause after failing rounds (the pause doubles from `pollIntervalMs`). Default 5000. */
  maxBackoffMs?: number;
  /** Told about failures (store, bus: at most one bus-unavailable report per round); the relay carries on. */
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
  /**
   * Age in seconds of the oldest event this relay claimed and has not yet seen acknowledged (its CloudEvents
   * `time`), 0 when none: how far behind the bus the outbox is (metrics: `outbox_oldest_event_age_seconds`).
   */
  oldestPendingAgeSeconds(): number;
}

/** The reason a kick gives when it cuts a pause short (any value but undefined, which builds an AbortError). */
const WOKEN = 'kicked';

/** A claimed record this relay still has work for, with the time its claim runs out. */
interface Held {
  pending: PendingOutbox;
  leaseUntil: number;
}

/** What the bus took of one claimed record, and the failure that stopped it (or null). */
interface Published {
  publishedIds: string[];
  error: unknown;
}

/**
 * Publishes the events that writes left in the store's outboxes (at least once). Each round claims pending
 * records, publishes each record's events in write order (stopping at a record's first failure so order
 * holds), then hands them to the acknowledgement, which runs beside the rounds and takes every round published
 * since the last one in one store call, at most every `ackIntervalMs` (their records stay leased until it lands);
 * an acknowledgement that released a record holding events written while it was leased (claims made meanwhile
 * skipped it) has the relay claim again at once. An event stays in the store until the bus acknowledged it; if
 * the process dies between the PubAck and the acknowledgement it is published again with the same id, and
 * JetStream (Nats-Msg-Id window) or the consumer drops the duplicate. While the bus or the store fails, rounds
 * back off; the loop itself never throws.
 *
 * A claim keeps other relays off a record for `leaseMs`, and the store cannot tell this relay's claims from
 * another's: records whose events could not all be published are therefore retried from memory while at least
 * half of their lease is left, then left to expire and be claimed again. So delivery resumes as soon as the
 * bus is back, never with two relays on one record.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { source, bus } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 10_000;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const ackIntervalMs = Math.max(0, options.ackIntervalMs ?? 50);
  const maxBackoffMs = Math.max(pollIntervalMs, options.maxBackoffMs ?? 5000);

  const stats: OutboxRelayStats = { lastSuccess: null, lastError: null, lastErrorAt: null, published: 0 };
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let loop: Promise<void> = Promise.resolve();
  let wake = new AbortController();
  let kicked = false;
  let backingOff = false;
  let held: Held[] = [];
  const ages = new PendingAges(leaseMs);

  /** Runs a round at once after the current one (a write kicked, or records were released with events left). */
  const claimAgain = () => {
    if (state !== 'running' || backingOff) return;
    kicked = true;
    // Every write kicks: abort() without a reason would build (and capture the stack of) an AbortError
    // each time, also when the pause was already cut short.
    if (!wake.signal.aborted) wake.abort(WOKEN);
  };

  const report = (error: unknown) => {
    stats.lastError = error instanceof Error ? error.message : String(error);
    stats.lastErrorAt = new Date().toISOString();
    try {
      options.onError?.(error);
    } catch {
      // A failing listener must not stop the relay.
    }
  };

  const early = createEarlyPublishes(bus);

  /**
   * Publishes one record's events in order (an event published early by its write is not published again when the
   * bus took it); returns the ids the bus took and the failure that stopped it.
   */
  const publishRecord = async (pending: PendingOutbox, busDown: { value: boolean }): Promise<Published> => {
    const publishedIds: string[] = [];
    let error: unknown = null;
    for (const message of pending.messages) {
      if (busDown.value || state === 'stopped') break;
      if (await early.took(message.id)) {
        publishedIds.push(message.id);
        continue;
      }
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
    stats.published += publishedIds.length;
    return { publishedIds, error };
  };

  /**
   * Acknowledges what the bus took of a published round in one call to the store (on MongoDB one command for the
   * common case, so an event costs its write a fraction of a store command), then settles each record: what is
   * left of it is kept for a retry from memory. A failed acknowledgement leaves every event of the round to be
   * published again (at least once). Resolves to whether the acknowledgement failed; never rejects.
   */
  const acknowledgeRound = async (
    work: readonly Held[],
    published: readonly Published[],
  ): Promise<boolean> => {
    const acks = work
      .map((h, i) => ({ pending: h.pending, messageIds: published[i]!.publishedIds }))
      .filter((ack) => ack.messageIds.length > 0);
    let ackFailed = false;
    if (acks.length > 0) {
      try {
        // Events written to a record while this round held it were skipped by claims made meanwhile: claim again.
        if (await source.acknowledge(acks)) claimAgain();
      } catch (e) {
        report(e);
        ackFailed = true;
      }
    }
    let errors = 0;
    let busErrorReported = false;
    work.forEach((h, i) => {
      const { publishedIds, error } = published[i]!;
      const remaining =
        ackFailed && publishedIds.length > 0
          ? h.pending.messages
          : h.pending.messages.slice(publishedIds.length);
      if (error !== null) {
        errors++;
        // Records published in parallel all fail when the bus is down: one report per round is enough.
        const busError = error instanceof BusUnavailableError;
        if (!busError || !busErrorReported) report(error);
        busErrorReported ||= busError;
      }
      ages.track(recordKey(h.pending), remaining, h.leaseUntil, Date.now());
      // A message the bus refused is not retried from memory: it waits for its lease to run out.
      const retry = error === null || error instanceof BusUnavailableError;
      if (remaining.length > 0 && retry && state !== 'stopped') {
        held.push({ pending: { ...h.pending, messages: remaining }, leaseUntil: h.leaseUntil });
      }
    });
    if (errors === 0 && !ackFailed) stats.lastSuccess = new Date().toISOString();
    return ackFailed;
  };

  /**
   * Published rounds wait here for their acknowledgement, which runs beside the rounds (their records stay leased
   * until it lands, so no round claims them again): one acknowledgement at a time, in round order, each of every
   * round published since the last one started, and at least `ackIntervalMs` after it. So an event written during a
   * slow acknowledgement (a disk flush, a store round trip) is published without waiting for it, and a store
   * command acknowledges many rounds under load.
   */
  let unacked: Array<{ work: readonly Held[]; published: readonly Published[] }> = [];
  let unackedRecords = 0;
  /** The acknowledgements in progress (settles when none is left to do); never rejects. */
  let acking: Promise<void> = Promise.resolve();
  let ackRunning = false;
  let lastAckStart = -Infinity;
  /** Cuts the pause before the next acknowledgement short (a full batch waits, or the relay stops). */
  let ackWake = new AbortController();
  /** An acknowledgement failed since the last round reported: the next round backs off. */
  let acknowledgementFailed = false;

  const acknowledgeWaiting = async (): Promise<void> => {
    ackRunning = true;
    try {
      while (unacked.length > 0) {
        const pause = lastAckStart + ackIntervalMs - Date.now();
        if (pause > 0 && state === 'running' && unackedRecords < batchSize) {
          ackWake = new AbortController();
          await sleep(pause, ackWake.signal);
        }
        const rounds = unacked;
        unacked = [];
        unackedRecords = 0;
        lastAckStart = Date.now();
        const failed = await acknowledgeRound(
          rounds.flatMap((r) => r.work),
          rounds.flatMap((r) => r.published),
        );
        acknowledgementFailed ||= failed;
      }
    } finally {
      ackRunning = false;
    }
  };

  /** Hands a published round to the acknowledgements; waits for them while a full batch of records is waiting. */
  const queueAcknowledgement = async (work: readonly Held[], published: readonly Published[]) => {
    unacked.push({ work, published });
    unackedRecords += work.length;
    if (!ackRunning) acking = acknowledgeWaiting();
    if (unackedRecords >= batchSize) {
      ackWake.abort(WOKEN);
      await acking;
    }
  };

  /** Records claimed earlier that still have work and at least half of their lease left. */
  const takeHeld = (): Held[] => {
    const now = Date.now();
    const usable = held.filter((h) => h.leaseUntil - now >= leaseMs / 2);
    held = [];
    return usable;
  };

  /**
   * One round; returns whether it (or an acknowledgement since the last round) failed and whether it claimed
   * a full batch (more may be waiting). A round after a kick lets the store read only what this process wrote
   * (`afterWrites`); a poll reads everything.
   */
  const round = async (afterWrites: boolean): Promise<{ failed: boolean; full: boolean }> => {
    let work = takeHeld();
    const wanted = batchSize - work.length;
    let full = false;
    if (wanted > 0) {
      const leaseUntil = Date.now() + leaseMs;
      try {
        const claimed = await source.claimPending(wanted, leaseMs, { afterWrites });
        full = claimed.length >= wanted;
        // A write kicked this round but left nothing to claim: its record may be one a waiting acknowledgement
        // holds (a second change within ackIntervalMs). Acknowledge now; its release claims again.
        if (afterWrites && claimed.length === 0 && unacked.length > 0) ackWake.abort(WOKEN);
        // A store may release a claim on acknowledgement: a fresh claim of a held record supersedes it.
        const fresh = new Set(claimed.map(recordKey));
        work = work.filter((h) => !fresh.has(recordKey(h.pending)));
        for (const pending of claimed) {
          work.push({ pending, leaseUntil });
          ages.track(recordKey(pending), pending.messages, leaseUntil, Date.now());
        }
      } catch (error) {
        report(error);
        // Kept with whatever the acknowledgement in flight hands back meanwhile.
        held.push(...work);
        return { failed: true, full: false };
      }
    }
    const busDown = { value: false };
    const published = await mapLimit(work, concurrency, (h) => publishRecord(h.pending, busDown));
    if (work.length > 0) await queueAcknowledgement(work, published);
    const failed = busDown.value || acknowledgementFailed;
    acknowledgementFailed = false;
    // A round with work succeeds when its acknowledgement lands (acknowledgeRound).
    if (work.length === 0 && !failed) stats.lastSuccess = new Date().toISOString();
    return { failed, full };
  };

  const run = async () => {
    let backoff = pollIntervalMs;
    while (state === 'running') {
      wake = new AbortController();
      const afterWrites = kicked;
      kicked = false;
      let outcome = { failed: true, full: false };
      try {
        outcome = await round(afterWrites);
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
    await acking;
  };

  return {
    start() {
      if (state !== 'idle') return;
      state = 'running';
      // A write that left its record nothing else pending: its events are published now, ahead of the claim (they
      // cannot overtake one of their record); the round that claims them takes the bus's answer instead of
      // publishing them again.
      source.onAnnounce?.((messages) => {
        if (state !== 'running') return;
        for (const message of messages)
          early.publish(message.id, message.subject, message.body as CloudEvent);
      });
      loop = run();
    },
    kick: claimAgain,
    async stop() {
      if (state === 'running') wake.abort();
      state = 'stopped';
      ackWake.abort(WOKEN);
      await loop;
      held = [];
      ages.clear();
      early.clear();
    },
    stats: () => ({ ...stats }),
    countPending: () => source.countPending(),
    oldestPendingAgeSeconds: () => ages.oldestAgeSeconds(Date.now()),
  };
}

function recordKey(pending: PendingOutbox): string {
  return JSON.stringify([pending.collection, pending.tenantId, pending.id]);
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
