// The webhooks subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { processConfigFromEnvironment, settingsFromEnvironment } from './config.js';
import { createWebhooksSubgraph } from './subgraph.js';

const { config, subgraphUrls } = processConfigFromEnvironment();
const settings = settingsFromEnvironment();
const logger = createLogger({ name: 'webhooks', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'webhooks',
    create: (deps) =>
      createWebhooksSubgraph(deps, settings, {
        onError: (error) => logger.warn('webhook deliveries: a round failed, will retry', { error }),
      }),
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('webhooks failed to start', { error });
  process.exit(1);
}
