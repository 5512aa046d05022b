import { arrivalSubject, keepFollowing, type Consumer, type EventBus, type KeptFollow } from '@coperto/bus';
import type { Logger } from './logger.js';
import type { Subgraph } from './subgraph.js';

export interface RunningConsumers {
  /** Stops every consumer, each once its event in hand is handled. */
  stop(): Promise<void>;
}

/**
 * Starts the durable event consumers and the per-process event followers the subgraphs declare, on the process's
 * bus. Call after the subgraphs'
 * `init` and before the outbox relay starts: in embedded mode the in-process bus hands an event only to the
 * consumers registered when it is published.
 *
 * `scope` (distributed mode: the MongoDB database the consumers write to) is part of each durable name: a
 * consumer's position in the stream belongs to the store its handler writes, so two deployments (or test stacks)
 * sharing one NATS server never take each other's events.
 */
export async function startEventConsumers(
  subgraphs: readonly Subgraph<unknown>[],
  bus: EventBus,
  logger: Logger,
  options: { scope?: string } = {},
): Promise<RunningConsumers> {
  const running: Array<Consumer | KeptFollow> = [];
  const stopOne = async (c: Consumer | KeptFollow) => ('stop' in c ? c.stop() : c.close());
  try {
    for (const subgraph of subgraphs) {
      for (const follower of subgraph.eventFollowers ?? []) {
        running.push(
          await keepFollowing(bus, follower.subject, {
            handle: (event) => {
              // The tenant is the subject's, never the body's: an event without one is not acted on.
              const subject = arrivalSubject(event);
              if (subject) follower.handle(event, subject);
            },
            onGap: () => follower.reset(),
            onTrouble: (message, error) =>
              logger.warn(`event follower of ${subgraph.name}: ${message}`, error ? { error } : {}),
          }),
        );
      }
    }
    for (const subgraph of subgraphs) {
      for (const consumer of subgraph.eventConsumers ?? []) {
        running.push(
          await bus.consume(consumer.subject, {
            durable: durableName(consumer.durable, options.scope),
            handle: (event, subject) => consumer.handle(event, subject),
            onError: (error, event) =>
              logger.warn('event consumer: will retry', {
                consumer: consumer.durable,
                eventId: event.id,
                error,
              }),
          }),
        );
      }
    }
  } catch (error) {
    await Promise.allSettled(running.map(stopOne));
    throw error;
  }
  return { stop: async () => void (await Promise.allSettled(running.map(stopOne))) };
}

/** `<name>_<scope>`, the scope reduced to what a durable name may hold. */
export function durableName(name: string, scope?: string): string {
  if (!scope) return name;
  return `${name}_${scope.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}
