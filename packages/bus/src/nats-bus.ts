import {
  AckPolicy,
  connect,
  consumerOpts,
  DeliverPolicy,
  DebugEvents,
  Events,
  nanos,
  NatsError,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  type Status,
} from 'nats';
import { markArrival } from './arrival-subject.js';
import { decodeEvent, encodeEvent } from './codec.js';
import { BusUnavailableError } from './errors.js';
import { natsConnectTarget, type NatsCredentials } from './nats-auth.js';
import { ensureEventStream } from './nats-stream.js';
import { isPublishSubject, isSubjectPattern } from './subject-matcher.js';
import { createSubscriptionQueue, type SubscriptionQueue } from './subscription-queue.js';
import { sleep, withTimeout } from '@coperto/async';
import { checkDurableName } from './durable-name.js';
import { ensureDurableConsumer } from './nats-consumer.js';
import { replayFromStream } from './nats-replay.js';
import type {
  BusStatus,
  CloudEvent,
  ConsumeOptions,
  Consumer,
  EventBus,
  ReplayOptions,
  ReplayResult,
  SubscribeOptions,
  Subscription,
} from './types.js';

export interface NatsBusOptions extends NatsCredentials {
  /**
   * `nats://host:port` (a comma-separated list is accepted), optionally with credentials:
   * `nats://user:pass@host:port` or `nats://token@host:port` (see nats-auth.ts; explicit fields win).
   */
  url: string;
  /** Connection name shown by the server's monitoring. */
  name?: string;
  /** JetStream stream capturing `tenant.*.restaurant.>`. Default `RESTAURANT`. */
  streamName?: string;
  /** A publish rejects when JetStream has not acknowledged it within this time. Default 2000. */
  publishTimeoutMs?: number;
  /** How long `connectNatsBus` retries creating the stream while JetStream is not ready. Default 15000. */
  setupTimeoutMs?: number;
}

const DRAIN_TIMEOUT_MS = 5000;
/** A durable consumer's event not acknowledged within this time is delivered again (handler crashed or hung). */
const CONSUMER_ACK_WAIT_MS = 30_000;
/** A handler failure delivers the event again after this delay. */
const CONSUMER_RETRY_DELAY_MS = 1000;

/**
 * Connects to NATS (waiting for the server if it is not up yet, and reconnecting for ever afterwards),
 * makes sure the event stream exists, and returns the NATS EventBus:
 * - `publish`: JetStream publish with `Nats-Msg-Id` = event id; resolves on the PubAck (also a duplicate's),
 *   rejects with BusUnavailableError when disconnected or not acknowledged within `publishTimeoutMs`;
 * - `subscribe`: a core NATS subscription (live events only), restored by the client after a reconnect;
 * - `follow`: a JetStream ordered consumer from the end of the stream, which resumes after the last event it
 *   delivered when the connection or the server comes back (no gap);
 * - `consume`: a JetStream durable pull consumer (explicit ack), shared by every process using its name;
 * - `replay`: one subject of the stream after a given event (nats-replay.ts);
 * - `close`: drains the subscriptions and the connection.
 */
export async function connectNatsBus(options: NatsBusOptions): Promise<EventBus> {
  const nc = await connect({
    ...natsConnectTarget(options.url, options),
    ...(options.name ? { name: options.name } : {}),
    maxReconnectAttempts: -1,
    waitOnFirstConnect: true,
    // nats.js otherwise builds an Error and a NatsError (stack traces captured) ahead of every request, a
    // JetStream publish included, just in case it fails: ≈2 % of a booking's CPU in prenotazione (bench
    // scenario 6). A failure still rejects with its NatsError; only the caller's async frames are left out.
    noAsyncTraces: true,
  }).catch((error: unknown) => {
    throw isAuthError(error)
      ? new BusUnavailableError(
          'NATS refused the credentials (authorization violation): check the user and password or token in ' +
            'NATS_URL, NATS_USER / NATS_PASSWORD, NATS_TOKEN or NATS_CREDS_FILE',
          { cause: error },
        )
      : error;
  });
  const streamName = options.streamName ?? 'RESTAURANT';
  try {
    await setUpStream(nc, streamName, options.setupTimeoutMs ?? 15_000);
  } catch (error) {
    await nc.close();
    throw new BusUnavailableError(`Could not set up the JetStream event stream: ${messageOf(error)}`, {
      cause: error,
    });
  }
  return createNatsBus(nc, options.publishTimeoutMs ?? 2000, streamName);
}

/** Right after a server (re)start JetStream may answer 503 for a moment: retry until the deadline. */
async function setUpStream(nc: NatsConnection, streamName: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const jsm = await nc.jetstreamManager({ timeout: 2000 });
      await ensureEventStream(jsm, streamName);
      return;
    } catch (error) {
      if (Date.now() >= deadline || !isTransient(error)) throw error;
      await sleep(250);
    }
  }
}

function isAuthError(error: unknown): boolean {
  return (
    error instanceof NatsError &&
    ['AUTHORIZATION_VIOLATION', 'AUTHENTICATION_EXPIRED', 'AUTHENTICATION_TIMEOUT'].includes(error.code)
  );
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof NatsError)) return false;
  if (error.isJetStreamError()) return error.api_error?.code === 503;
  return ['503', 'TIMEOUT', 'DISCONNECT'].includes(error.code);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function createNatsBus(nc: NatsConnection, publishTimeoutMs: number, streamName: string): EventBus {
  const js: JetStreamClient = nc.jetstream({ timeout: publishTimeoutMs });
  let manager: Promise<JetStreamManager> | undefined;
  const jetstreamManager = () =>
    (manager ??= nc.jetstreamManager().catch((error: unknown) => {
      manager = undefined;
      throw error;
    }));
  const queues = new Set<SubscriptionQueue>();
  const consumers = new Set<Consumer>();
  let connected = true;
  let reconnects = 0;
  let closing: Promise<void> | null = null;

  const endAll = () => {
    for (const queue of [...queues]) queue.end('drain');
  };

  const statusEvents: AsyncIterable<Status> & { stop?: () => void } = nc.status();
  const watchStatus = (async () => {
    for await (const s of statusEvents) {
      if (s.type === Events.Disconnect || s.type === DebugEvents.Reconnecting) connected = false;
      else if (s.type === Events.Reconnect) {
        connected = true;
        reconnects++;
      }
    }
  })().catch(() => {});
  // With reconnects for ever the connection closes only through close() or a fatal error (e.g. auth).
  void nc.closed().then(() => {
    connected = false;
    endAll();
    // nats.js 2.29.3 does not end the iterators returned by nc.status() when the connection closes.
    statusEvents.stop?.();
  });

  const unavailable = (what: string, error?: unknown) =>
    new BusUnavailableError(
      error === undefined ? what : `${what}: ${messageOf(error)}`,
      error === undefined ? undefined : { cause: error },
    );

  return {
    async publish(subject: string, event: CloudEvent): Promise<void> {
      if (!isPublishSubject(subject)) throw new TypeError(`Invalid publish subject: ${subject}`);
      if (closing || nc.isClosed()) throw unavailable('Event bus closed');
      // Bytes written while disconnected are dropped by the client on reconnect: fail fast instead.
      if (!connected) throw unavailable(`Not connected to NATS, event ${event.id} not published`);
      try {
        await withTimeout(
          js.publish(subject, encodeEvent(event), { msgID: event.id, timeout: publishTimeoutMs }),
          publishTimeoutMs + 100,
          () => unavailable(`No PubAck within ${publishTimeoutMs} ms for event ${event.id}`),
        );
      } catch (error) {
        if (error instanceof BusUnavailableError) throw error;
        throw unavailable(`Event ${event.id} not acknowledged by JetStream`, error);
      }
    },

    subscribe(pattern: string, options: SubscribeOptions = {}): Subscription {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      let release = () => {};
      const queue = createSubscriptionQueue({ ...options, onEnd: () => release() });
      if (closing || nc.isClosed()) {
        queue.end('discard');
        return queue.subscription;
      }
      const sub = nc.subscribe(pattern, {
        callback: (error, msg) => {
          if (error) return queue.end('drain');
          const event = decodeEvent(msg.data);
          if (event) queue.push(markArrival(event, msg.subject));
        },
      });
      queues.add(queue);
      release = () => {
        queues.delete(queue);
        if (!closing && !nc.isClosed()) sub.unsubscribe();
      };
      return queue.subscription;
    },

    async follow(pattern: string, options: SubscribeOptions = {}): Promise<Subscription> {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      if (closing || nc.isClosed()) throw unavailable('Event bus closed');
      const consumer = consumerOpts();
      consumer.orderedConsumer();
      consumer.deliverNew();
      consumer.filterSubject(pattern);
      const sub = await js.subscribe(pattern, consumer);
      let release = () => {};
      const queue = createSubscriptionQueue({ ...options, onEnd: () => release() });
      queues.add(queue);
      release = () => {
        queues.delete(queue);
        if (!closing && !nc.isClosed()) sub.unsubscribe();
      };
      void (async () => {
        for await (const msg of sub) {
          const event = decodeEvent(msg.data);
          if (event) queue.push(markArrival(event, msg.subject, msg.seq));
        }
      })()
        .catch(() => {})
        .finally(() => queue.end('drain'));
      return queue.subscription;
    },

    async consume(pattern: string, options: ConsumeOptions): Promise<Consumer> {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      checkDurableName(options.durable);
      if (closing || nc.isClosed()) throw unavailable('Event bus closed');
      await ensureDurableConsumer(await nc.jetstreamManager(), streamName, {
        durable_name: options.durable,
        filter_subject: pattern,
        ack_policy: AckPolicy.Explicit,
        // A new consumer starts at its creation; an existing one resumes where its name left off.
        deliver_policy: DeliverPolicy.New,
        ack_wait: nanos(CONSUMER_ACK_WAIT_MS),
      });
      const messages: ConsumerMessages = await (
        await js.consumers.get(streamName, options.durable)
      ).consume({ max_messages: 100 });
      const loop = (async () => {
        for await (const msg of messages) {
          const event = decodeEvent(msg.data);
          // Not an event of ours: nothing would ever handle it, so it is not delivered again.
          if (!event) {
            msg.term();
            continue;
          }
          markArrival(event, msg.subject);
          try {
            await options.handle(event, msg.subject);
            msg.ack();
          } catch (error) {
            options.onError?.(error, event);
            msg.nak(CONSUMER_RETRY_DELAY_MS);
          }
        }
      })().catch(() => {});
      const consumer: Consumer = {
        stop: async () => {
          consumers.delete(consumer);
          await messages.close().catch(() => {});
          await loop;
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async replay(subject: string, afterId: string, options: ReplayOptions): Promise<ReplayResult> {
      if (!isPublishSubject(subject)) throw new TypeError(`Invalid replay subject: ${subject}`);
      if (closing || nc.isClosed()) throw unavailable('Event bus closed');
      try {
        return await replayFromStream(js, await jetstreamManager(), streamName, subject, afterId, options);
      } catch (error) {
        throw unavailable(`Could not read the event stream after ${afterId}`, error);
      }
    },

    async ping(timeoutMs = 2000): Promise<number> {
      if (closing || nc.isClosed()) throw unavailable('Event bus closed');
      try {
        return await withTimeout(nc.rtt(), timeoutMs, () =>
          unavailable(`NATS did not answer within ${timeoutMs} ms`),
        );
      } catch (error) {
        if (error instanceof BusUnavailableError) throw error;
        throw unavailable('NATS ping failed', error);
      }
    },

    status(): BusStatus {
      return { connected: connected && !nc.isClosed(), reconnects };
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.allSettled([...consumers].map((consumer) => consumer.stop()));
        // Draining needs the server: when it is gone (or does not answer in time), just close.
        if (connected && !nc.isClosed()) {
          try {
            await withTimeout(nc.drain(), DRAIN_TIMEOUT_MS, () => new Error('drain timed out'));
          } catch {
            // Closed meanwhile or timed out: close below.
          }
        }
        if (!nc.isClosed()) await nc.close();
        endAll();
        statusEvents.stop?.();
        await watchStatus;
      })();
      return closing;
    },
  };
}
