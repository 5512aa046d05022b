import { arrivalSequence, markArrival } from './arrival-subject.js';
import { BusUnavailableError } from './errors.js';
import { isPublishSubject, isSubjectPattern, subjectMatches } from './subject-matcher.js';
import { createSubscriptionQueue, type SubscriptionQueue } from './subscription-queue.js';
import { checkDurableName } from './durable-name.js';
import { createReplayLog, type ReplayLog, type ReplayLogOptions } from './replay-log.js';
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

interface Entry {
  pattern: string;
  queue: SubscriptionQueue;
}

interface ConsumerEntry {
  pattern: string;
  options: ConsumeOptions;
  /** Handlers running now: stop() waits for them. */
  running: Set<Promise<void>>;
}

export interface MemoryBusOptions {
  /**
   * Keep the published events in a bounded log that `replay` reads (embedded mode's stand-in for the JetStream
   * stream; replay-log.ts). Without it nothing is stored, and each delivered event keeps the sequence of the
   * event it was published with (a fan-out of another bus's events).
   */
  replayLog?: ReplayLogOptions;
}

/**
 * The in-process bus of embedded mode: NATS subject semantics (`*`, `>`) without a server. `publish`
 * delivers to the subscriptions that exist at that moment and resolves (an event published with no subscriber
 * is gone for them, like a core NATS message; only the optional replay log keeps it). Events are copied through JSON, as on
 * the wire, so subscribers never share objects with the publisher. A durable consumer (`consume`) is handed
 * each matching event before `publish` resolves (one holder per durable name: the earliest still consuming), so the
 * outbox relay acknowledges an event only once its consumers have handled it.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): EventBus & { readonly log?: ReplayLog } {
  const log = options.replayLog ? createReplayLog(options.replayLog) : undefined;
  const entries = new Set<Entry>();
  /** The holders of each durable name, in registration order: the first takes every event. */
  const consumers = new Map<string, ConsumerEntry[]>();
  let closed = false;

  const handOver = async (consumer: ConsumerEntry, subject: string, json: string) => {
    const event = markArrival(JSON.parse(json) as CloudEvent, subject);
    const run = consumer.options.handle(event, subject);
    consumer.running.add(run);
    try {
      await run;
    } catch (error) {
      consumer.options.onError?.(error, event);
      throw new BusUnavailableError(
        `Consumer ${consumer.options.durable} failed on event ${event.id}: it will be published again`,
        { cause: error },
      );
    } finally {
      consumer.running.delete(run);
    }
  };

  return {
    ...(log ? { log } : {}),
    async publish(subject: string, event: CloudEvent): Promise<void> {
      if (!isPublishSubject(subject)) throw new TypeError(`Invalid publish subject: ${subject}`);
      if (closed) throw new BusUnavailableError('Event bus closed');
      const json = JSON.stringify(event);
      const sequence = log ? log.append(subject, event.id, json) : arrivalSequence(event);
      for (const entry of [...entries]) {
        if (subjectMatches(entry.pattern, subject))
          entry.queue.push(markArrival(JSON.parse(json) as CloudEvent, subject, sequence));
      }
      const handlers = [...consumers.values()]
        .map((holders) => holders[0]!)
        .filter((c) => subjectMatches(c.pattern, subject));
      await Promise.all(handlers.map((consumer) => handOver(consumer, subject, json)));
    },

    subscribe(pattern: string, options: SubscribeOptions = {}): Subscription {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      const entry: Entry = {
        pattern,
        queue: createSubscriptionQueue({ ...options, onEnd: () => entries.delete(entry) }),
      };
      if (closed) entry.queue.end('discard');
      else entries.add(entry);
      return entry.queue.subscription;
    },

    async follow(pattern: string, options: SubscribeOptions = {}): Promise<Subscription> {
      // Nothing is stored and nothing disconnects in-process: following is subscribing.
      return this.subscribe(pattern, options);
    },

    async consume(pattern: string, options: ConsumeOptions): Promise<Consumer> {
      if (!isSubjectPattern(pattern)) throw new TypeError(`Invalid subject pattern: ${pattern}`);
      checkDurableName(options.durable);
      if (closed) throw new BusUnavailableError('Event bus closed');
      const consumer: ConsumerEntry = { pattern, options, running: new Set() };
      consumers.set(options.durable, [...(consumers.get(options.durable) ?? []), consumer]);
      return {
        stop: async () => {
          const rest = (consumers.get(options.durable) ?? []).filter((c) => c !== consumer);
          if (rest.length > 0) consumers.set(options.durable, rest);
          else consumers.delete(options.durable);
          await Promise.allSettled([...consumer.running]);
        },
      };
    },

    async replay(subject: string, afterId: string, replay: ReplayOptions): Promise<ReplayResult> {
      if (!isPublishSubject(subject)) throw new TypeError(`Invalid replay subject: ${subject}`);
      if (closed) throw new BusUnavailableError('Event bus closed');
      return log ? log.replay(subject, afterId, replay) : { ok: false, reason: 'unknown' };
    },

    async ping(): Promise<number> {
      if (closed) throw new BusUnavailableError('Event bus closed');
      return 0;
    },

    status(): BusStatus {
      return { connected: !closed, reconnects: 0 };
    },

    async close(): Promise<void> {
      closed = true;
      consumers.clear();
      for (const entry of [...entries]) entry.queue.end('drain');
    },
  };
}
