import type { TenantId } from '@coperto/auth';

import type { CloudEvent } from './envelope.js';

export type { CloudEvent };

/**
 * The changes of a waitlist entry: each its own CloudEvents `type`, all on one subject (waitlist.updated).
 * `waitlist.erased`: the guest's name, phone and notes were erased from the entry (a guest's oblio).
 */
export type WaitlistEventType =
  | 'waitlist.added'
  | 'waitlist.notified'
  | 'waitlist.seated'
  | 'waitlist.left'
  | 'waitlist.cancelled'
  | 'waitlist.erased';

/**
 * A guest profile's changes (the ospiti subgraph): each its own subject. Their data names the fields that changed
 * and carries the counts, never the personal data (docs/events.md).
 */
export type GuestEventType = 'guests.created' | 'guests.updated' | 'guests.merged' | 'guests.erased';

/**
 * The event types of the interface (section 6), the waitlist's, guests', a reminder due, the capacity settings
 * changed, and a webhook endpoint switched off.
 */
export type RestaurantEventType =
  | 'tables.status'
  | 'bookings.created'
  | 'bookings.updated'
  | 'bookings.cancelled'
  | WaitlistEventType
  | GuestEventType
  | 'reminders.due'
  | 'capacity.config.updated'
  | 'webhooks.disabled';

/** The subject type every waitlist change is published on. */
export const WAITLIST_SUBJECT_TYPE = 'waitlist.updated';

const SUBJECT_TYPE_OF: Readonly<Record<string, string>> = {
  'waitlist.added': WAITLIST_SUBJECT_TYPE,
  'waitlist.notified': WAITLIST_SUBJECT_TYPE,
  'waitlist.seated': WAITLIST_SUBJECT_TYPE,
  'waitlist.left': WAITLIST_SUBJECT_TYPE,
  'waitlist.cancelled': WAITLIST_SUBJECT_TYPE,
  'waitlist.erased': WAITLIST_SUBJECT_TYPE,
} satisfies Record<WaitlistEventType, string>;

/** Every waitlist event type, from the one table above. */
export const WAITLIST_EVENT_TYPES = Object.keys(SUBJECT_TYPE_OF) as WaitlistEventType[];

/**
 * The last tokens of the NATS subject an event type is published on: the type itself, except the waitlist's
 * changes, which share `waitlist.updated` (one subject to follow; the CloudEvents `type` says which change).
 */
export function subjectTypeOf(type: string): string {
  return Object.hasOwn(SUBJECT_TYPE_OF, type) ? SUBJECT_TYPE_OF[type]! : type;
}

/** `tenant.<tenantId>.restaurant.<subject type>` (see subjectTypeOf). */
export function natsSubject(tenantId: TenantId | string, type: RestaurantEventType | string): string {
  return `tenant.${tenantId}.restaurant.${subjectTypeOf(type)}`;
}

export interface BusStatus {
  connected: boolean;
  /** Reconnections since start. */
  reconnects: number;
}

export interface Subscription extends AsyncIterable<CloudEvent> {
  /** Stops delivery; the iterator ends. */
  unsubscribe(): void;
}

export interface SubscribeOptions {
  /**
   * Events buffered for a consumer that does not keep up. When exceeded, `onOverflow` runs and the
   * subscription ends (slow consumers cannot grow memory without bound). Default 1000.
   */
  maxPending?: number;
  onOverflow?: () => void;
}

/** How a durable consumer handles each event (see EventBus.consume). */
export interface ConsumeOptions {
  /**
   * The consumer's name (letters, digits, `_`, `-`): every process consuming under one name shares one position
   * in the stream, and each event goes to one of them.
   */
  durable: string;
  /**
   * Handles one event (`subject`: what it was published on). The event counts as consumed only once this
   * resolves; a rejection delivers it again later (at least once: handlers dedupe by event id).
   */
  handle(event: CloudEvent, subject: string): Promise<void>;
  /** Told each handler failure (the event will be delivered again). */
  onError?: (error: unknown, event: CloudEvent) => void;
}

/** What `EventBus.replay` reads. */
export interface ReplayOptions {
  /** Only events stored within this many milliseconds before now are looked at. */
  windowMs: number;
  /** More events than this after the given one: `too-many` (the reader should reload instead). */
  maxEvents: number;
}

/**
 * The events stored on a subject after a given one, in store order (`afterSequence`: the given event's place),
 * or why not: `unknown` (no such event on this subject within the window, or the bus stores nothing), `too-many`.
 */
export type ReplayResult =
  { ok: true; afterSequence: number; events: CloudEvent[] } | { ok: false; reason: 'unknown' | 'too-many' };

export interface Consumer {
  /** Stops taking events; resolves once the event being handled (if any) is done. */
  stop(): Promise<void>;
}

/**
 * Publish/subscribe on NATS subjects. Two implementations pass one contract suite: NatsBus (JetStream
 * publish with ack, core subscriptions) and MemoryBus (in-process, embedded mode).
 */
export interface EventBus {
  /**
   * Publishes and resolves once the bus has stored it (JetStream PubAck); rejects (BusUnavailableError)
   * when it could not — the caller (the outbox relay) retries later.
   */
  publish(subject: string, event: CloudEvent): Promise<void>;
  /** Subject may use NATS wildcards (`*`, `>`). Delivers events published after the call. */
  subscribe(subject: string, options?: SubscribeOptions): Subscription;
  /**
   * Like `subscribe`, but without gaps across bus outages: resolves once it is following, then delivers every
   * event stored after that moment, also those published while it was reconnecting (NatsBus: a JetStream
   * ordered consumer that resumes after the last event it delivered; MemoryBus: a subscription). For the one
   * long-lived feed of a process (the gateway's subscriptions), not for one consumer per client.
   */
  follow(subject: string, options?: SubscribeOptions): Promise<Subscription>;
  /**
   * A durable consumer: every event stored on `subject` from the consumer's creation on is handed to
   * `options.handle` until a handle resolves, also across restarts and bus outages (NatsBus: a JetStream durable
   * pull consumer with explicit acknowledgement, created once, resumed by name; MemoryBus: `publish` resolves
   * only after the handlers of its matching consumers did, so the outbox keeps an event whose handling failed
   * or never finished and publishes it again).
   */
  consume(subject: string, options: ConsumeOptions): Promise<Consumer>;
  /**
   * The events stored on `subject` (one publish subject, no wildcards) after the event `afterId`, in store
   * order, each marked with its subject and sequence (arrival-subject.ts). Only the stored events of that subject
   * are read, so an id of another subject (or tenant) is `unknown`. NatsBus: the JetStream stream, within
   * `windowMs`; MemoryBus: its bounded replay log when created with one, else always `unknown`.
   */
  replay(subject: string, afterId: string, options: ReplayOptions): Promise<ReplayResult>;
  /** Round trip to the server (ms); rejects when it does not answer within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<number>;
  status(): BusStatus;
  /** Drains subscriptions and closes the connection. */
  close(): Promise<void>;
}
