// The sala subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createSalaSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'sala', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'sala',
    create: createSalaSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('sala failed to start', { error });
  process.exit(1);
}
