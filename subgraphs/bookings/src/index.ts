// The bookings subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createBookingsSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'bookings', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'bookings',
    create: createBookingsSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('bookings failed to start', { error });
  process.exit(1);
}
