// The webhooks subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { runSubgraphProcess } from '@coperto/server-kit';
import { processConfigFromEnvironment, settingsFromEnvironment } from './config.js';
import { createWebhooksSubgraph } from './subgraph.js';

const settings = settingsFromEnvironment();
await runSubgraphProcess({
  name: 'webhooks',
  create: (deps, logger) =>
    createWebhooksSubgraph(deps, settings, {
      onError: (error) => logger.warn('webhook deliveries: a round failed, will retry', { error }),
    }),
  ...processConfigFromEnvironment(),
});
