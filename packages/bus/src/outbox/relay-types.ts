import type { OutboxSource } from '@coperto/store';
import type { EventBus } from '../types.js';
import type { EarlyPublishesStats } from './early-publishes.js';

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
  /** The events its writes published early whose round has not yet taken the answer, against their bound. */
  earlyPublishes(): EarlyPublishesStats;
}
