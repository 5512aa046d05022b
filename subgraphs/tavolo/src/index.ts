// The tavolo subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createTavoloSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'tavolo', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'tavolo',
    create: createTavoloSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('tavolo failed to start', { error });
  process.exit(1);
}
