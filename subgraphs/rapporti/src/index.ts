// The rapporti subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createRapportiSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'rapporti', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'rapporti',
    create: createRapportiSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('rapporti failed to start', { error });
  process.exit(1);
}
