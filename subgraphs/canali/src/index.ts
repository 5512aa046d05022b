// The canali subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createCanaliSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'canali', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'canali',
    create: createCanaliSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('canali failed to start', { error });
  process.exit(1);
}
