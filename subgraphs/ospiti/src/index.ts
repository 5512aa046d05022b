// The ospiti subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createOspitiSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'ospiti', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'ospiti',
    create: createOspitiSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('ospiti failed to start', { error });
  process.exit(1);
}
