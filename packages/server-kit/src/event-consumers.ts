import type { Consumer, EventBus } from '@coperto/bus';
import type { Logger } from './logger.js';
import type { Subgraph } from './subgraph.js';

export interface RunningConsumers {
  /** Stops every consumer, each once its event in hand is handled. */
  stop(): Promise<void>;
}

/**
 * Starts the durable event consumers the subgraphs declare, on the process's bus. Call after the subgraphs'
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
  const running: Consumer[] = [];
  try {
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
    await Promise.allSettled(running.map((c) => c.stop()));
    throw error;
  }
  return { stop: async () => void (await Promise.allSettled(running.map((c) => c.stop()))) };
}

/** `<name>_<scope>`, the scope reduced to what a durable name may hold. */
export function durableName(name: string, scope?: string): string {
  if (!scope) return name;
  return `${name}_${scope.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}
