import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  createLogger,
  loadSchemaFile,
  type SubgraphWorker,
  type Subgraph,
  type SubgraphDeps,
} from '@coperto/server-kit';
import type { WebhooksSettings } from './config.js';
import { createWebhooksContext, type WebhooksContext } from './context.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './delivery/delivery-worker.js';
import { webhookIntake } from './delivery/intake.js';
import { createSender } from './delivery/sender.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';
import { ensureWebhooksIndexes, WEBHOOKS } from './webhooks-store.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { Query, Mutation };

/** Tuning a test or a bench may change; the defaults are production's. */
export type WebhooksTuning = Pick<
  DeliveryWorkerOptions,
  'waits' | 'leaseMs' | 'pollMs' | 'batch' | 'onError'
> & {
  attemptTimeoutMs?: number;
};

/**
 * The webhooks subgraph: administrators' endpoints, the durable consumer that turns every restaurant event into
 * deliveries, and the delivery worker each hosting process runs.
 */
export function createWebhooksSubgraph(
  deps: SubgraphDeps,
  settings: WebhooksSettings,
  tuning: WebhooksTuning = {},
): Subgraph<WebhooksContext> {
  const schema = buildSubgraphSchema([{ typeDefs, resolvers }]);
  const now = deps.now ?? (() => new Date());
  const queue = new DeliveryQueue(deps.store);
  const sender = createSender({
    allowPrivate: settings.allowPrivate,
    ...(tuning.attemptTimeoutMs ? { timeoutMs: tuning.attemptTimeoutMs } : {}),
  });
  const logger = tuning.onError ? undefined : createLogger({ name: 'webhooks', level: 'warn' });
  const worker = createDeliveryWorker({
    onError: (error) => logger?.warn('webhook deliveries: a round failed, will retry', { error }),
    ...tuning,
    store: deps.store,
    queue,
    sender,
    now,
    onEventsWritten: deps.onEventsWritten,
  });
  const deliveries: SubgraphWorker = {
    start: () => worker.start(),
    stop: async () => {
      await worker.stop();
      await sender.close();
    },
  };
  const onQueued = () => worker.kick();
  return {
    name: 'webhooks',
    typeDefs,
    schema,
    outboxCollections: [WEBHOOKS],
    createContext: (request) => createWebhooksContext({ deps, settings, queue, onQueued }, request),
    init: async () => {
      await ensureWebhooksIndexes(deps.store);
      await DeliveryQueue.ensureIndexes(deps.store);
    },
    eventConsumers: [
      webhookIntake(deps.store, queue, now, onQueued, (error) =>
        (
          tuning.onError ??
          ((e) => logger?.warn('webhook deliveries: a retention sweep failed', { error: e }))
        )(error),
      ),
    ],
    workers: [deliveries],
  };
}

export { EVENT_TYPES } from './event-types.js';
export { WEBHOOK_LIMITS, WEBHOOK_URL_PATTERN } from './webhook-input.js';
