// The capacity subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createCapacitySubgraph } from './subgraph.js';

const logger = createLogger({ name: 'capacity', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'capacity',
    create: createCapacitySubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('capacity failed to start', { error });
  process.exit(1);
}
