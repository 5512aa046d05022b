import type { OutboxSource, PendingOutbox } from '@coperto/store';
import { BusUnavailableError } from '../errors.js';
import { sleep } from '@coperto/async';
import type { CloudEvent, EventBus } from '../types.js';
import { Acknowledgements, WOKEN } from './acknowledgements.js';
import { createEarlyPublishes } from './early-publishes.js';
import { PendingAges } from './pending-ages.js';
import {
  initialRelayState,
  isPause,
  nextRelayState,
  type RelayEvent,
  type RelayState,
  type RelayTiming,
} from './relay-machine.js';
import type { OutboxRelay, OutboxRelayOptions, OutboxRelayStats } from './relay-types.js';

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

/** A published round: its records and what the bus took of each. */
interface Round {
  work: readonly Held[];
  published: readonly Published[];
}

/**
 * Publishes the events that writes left in the store's outboxes (at least once); the protocol is in
 * packages/bus/README.md. The loop is the state machine of relay-machine.ts: each round claims pending records,
 * publishes each record's events in write order (stopping at a record's first failure so order holds), then hands
 * them to the acknowledgements (acknowledgements.ts), which run beside the rounds; an acknowledgement that released
 * a record holding events written while it was leased has the relay claim again at once. An event stays in the
 * store until the bus acknowledged it. While the bus or the store fails, rounds back off; the loop never throws.
 *
 * A claim keeps other relays off a record for `leaseMs`, and the store cannot tell this relay's claims from
 * another's: records whose events could not all be published are therefore retried from memory while at least
 * half of their lease is left, then left to expire and be claimed again.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  return new Relay(options);
}

class Relay implements OutboxRelay {
  private readonly source: OutboxSource;
  private readonly bus: EventBus;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly timing: RelayTiming;
  private readonly statistics: OutboxRelayStats = {
    lastSuccess: null,
    lastError: null,
    lastErrorAt: null,
    published: 0,
  };
  private readonly ages: PendingAges;
  private readonly early: ReturnType<typeof createEarlyPublishes>;
  private readonly acks: Acknowledgements<Round>;

  /** The one place the loop's state lives (relay-machine.ts). */
  private state: RelayState;
  /** Cuts the current pause short (a kick while polling, or stop). */
  private wake = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  /** Claimed records with work left, retried from memory by the next round. */
  private held: Held[] = [];

  constructor(private readonly options: OutboxRelayOptions) {
    this.source = options.source;
    this.bus = options.bus;
    const pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    this.leaseMs = options.leaseMs ?? 10_000;
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.timing = { pollIntervalMs, maxBackoffMs: Math.max(pollIntervalMs, options.maxBackoffMs ?? 5000) };
    this.state = initialRelayState(this.timing);
    this.ages = new PendingAges(this.leaseMs);
    this.early = createEarlyPublishes(this.bus);
    this.acks = new Acknowledgements<Round>({
      intervalMs: Math.max(0, options.ackIntervalMs ?? 50),
      batchSize: this.batchSize,
      sizeOf: (round) => round.work.length,
      acknowledge: (rounds) => this.acknowledge(rounds),
    });
  }

  start(): void {
    if (this.state.phase !== 'idle') return;
    this.dispatch({ type: 'start' });
    // A write that left its record nothing else pending: its events are published now, ahead of the claim (they
    // cannot overtake one of their record); the round that claims them takes the bus's answer instead.
    this.source.onAnnounce?.((messages) => {
      if (this.state.phase === 'stopped') return;
      for (const message of messages)
        this.early.publish(message.id, message.subject, message.body as CloudEvent);
    });
    this.loop = this.run();
  }

  kick(): void {
    this.dispatch({ type: 'kick' });
  }

  async stop(): Promise<void> {
    this.dispatch({ type: 'stop' });
    this.wake.abort(WOKEN);
    await this.acks.flush();
    await this.loop;
    this.held = [];
    this.ages.clear();
    this.early.clear();
  }

  stats(): OutboxRelayStats {
    return { ...this.statistics };
  }

  countPending(): Promise<number> {
    return this.source.countPending();
  }

  oldestPendingAgeSeconds(): number {
    return this.ages.oldestAgeSeconds(Date.now());
  }

  earlyPublishes() {
    return this.early.stats();
  }

  /** Moves the state machine; a kick that ends a pause cuts it short (one abort however many kicks follow). */
  private dispatch(event: RelayEvent): void {
    const before = this.state.phase;
    this.state = nextRelayState(this.state, event, this.timing);
    if (isPause(before) && this.state.phase === 'round') this.wake.abort(WOKEN);
  }

  private async run(): Promise<void> {
    for (;;) {
      const { phase, kicked, pauseMs } = this.state;
      if (phase === 'round') {
        this.dispatch({ type: 'roundStarted' });
        let outcome = { failed: true, full: false };
        try {
          outcome = await this.round(kicked);
        } catch (error) {
          this.report(error);
        }
        this.dispatch({ type: 'roundEnded', ...outcome });
      } else if (isPause(phase)) {
        this.wake = new AbortController();
        await sleep(pauseMs, this.wake.signal);
        this.dispatch({ type: 'pauseEnded' });
      } else break;
    }
    await this.acks.flush();
  }

  /**
   * One round; returns whether it (or an acknowledgement since the last round) failed and whether it claimed a full
   * batch (more may be waiting). A round after a kick lets the store read only what this process wrote
   * (`afterWrites`); a poll reads everything.
   */
  private async round(afterWrites: boolean): Promise<{ failed: boolean; full: boolean }> {
    let work = this.takeHeld();
    const wanted = this.batchSize - work.length;
    let full = false;
    if (wanted > 0) {
      const leaseUntil = Date.now() + this.leaseMs;
      try {
        const claimed = await this.source.claimPending(wanted, this.leaseMs, { afterWrites });
        full = claimed.length >= wanted;
        // A write kicked this round but left nothing to claim: its record may be one a waiting acknowledgement
        // holds (a second change within ackIntervalMs). Acknowledge now; its release claims again.
        if (afterWrites && claimed.length === 0 && this.acks.hasWaiting()) this.acks.hurry();
        // A store may release a claim on acknowledgement: a fresh claim of a held record supersedes it.
        const fresh = new Set(claimed.map(recordKey));
        work = work.filter((h) => !fresh.has(recordKey(h.pending)));
        for (const pending of claimed) {
          work.push({ pending, leaseUntil });
          this.ages.track(recordKey(pending), pending.messages, leaseUntil, Date.now());
        }
      } catch (error) {
        this.report(error);
        // Kept with whatever the acknowledgement in flight hands back meanwhile.
        this.held.push(...work);
        return { failed: true, full: false };
      }
    }
    const busDown = { value: false };
    const published = await mapLimit(work, this.concurrency, (h) => this.publishRecord(h.pending, busDown));
    if (work.length > 0) await this.acks.add({ work, published });
    const failed = this.acks.takeFailure() || busDown.value;
    // A round with work succeeds when its acknowledgement lands (acknowledge).
    if (work.length === 0 && !failed) this.statistics.lastSuccess = new Date().toISOString();
    return { failed, full };
  }

  /** Records claimed earlier that still have work and at least half of their lease left. */
  private takeHeld(): Held[] {
    const now = Date.now();
    const usable = this.held.filter((h) => h.leaseUntil - now >= this.leaseMs / 2);
    this.held = [];
    return usable;
  }

  /**
   * Publishes one record's events in order (an event published early by its write is not published again when the
   * bus took it); returns the ids the bus took and the failure that stopped it.
   */
  private async publishRecord(pending: PendingOutbox, busDown: { value: boolean }): Promise<Published> {
    const publishedIds: string[] = [];
    let error: unknown = null;
    for (const message of pending.messages) {
      if (busDown.value || this.state.phase === 'stopped') break;
      if (await this.early.took(message.id)) {
        publishedIds.push(message.id);
        continue;
      }
      try {
        await this.bus.publish(message.subject, message.body as CloudEvent);
        publishedIds.push(message.id);
      } catch (e) {
        // The bus is down: leave the rest of this round to a later one. Any other failure (a message the bus
        // refuses) only holds back this record.
        if (e instanceof BusUnavailableError) busDown.value = true;
        error = e;
        break;
      }
    }
    this.statistics.published += publishedIds.length;
    return { publishedIds, error };
  }

  /**
   * Acknowledges what the bus took of published rounds in one call to the store (on MongoDB one command for the
   * common case, so an event costs its write a fraction of a store command), then settles each record: what is
   * left of it is kept for a retry from memory. A failed acknowledgement leaves every event of the rounds to be
   * published again (at least once). Resolves to whether the acknowledgement failed; never rejects.
   */
  private async acknowledge(rounds: readonly Round[]): Promise<boolean> {
    const work = rounds.flatMap((r) => r.work);
    const published = rounds.flatMap((r) => r.published);
    const acks = work
      .map((h, i) => ({ pending: h.pending, messageIds: published[i]!.publishedIds }))
      .filter((ack) => ack.messageIds.length > 0);
    let ackFailed = false;
    if (acks.length > 0) {
      try {
        // Events written to a record while this round held it were skipped by claims made meanwhile: claim again.
        if (await this.source.acknowledge(acks)) this.kick();
      } catch (e) {
        this.report(e);
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
        if (!busError || !busErrorReported) this.report(error);
        busErrorReported ||= busError;
      }
      this.ages.track(recordKey(h.pending), remaining, h.leaseUntil, Date.now());
      // A message the bus refused is not retried from memory: it waits for its lease to run out.
      const retry = error === null || error instanceof BusUnavailableError;
      if (remaining.length > 0 && retry && this.state.phase !== 'stopped') {
        this.held.push({ pending: { ...h.pending, messages: remaining }, leaseUntil: h.leaseUntil });
      }
    });
    if (errors === 0 && !ackFailed) this.statistics.lastSuccess = new Date().toISOString();
    return ackFailed;
  }

  private report(error: unknown): void {
    this.statistics.lastError = error instanceof Error ? error.message : String(error);
    this.statistics.lastErrorAt = new Date().toISOString();
    try {
      this.options.onError?.(error);
    } catch {
      // A failing listener must not stop the relay.
    }
  }
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
