// The garanzie subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, stripeSettings, subgraphUrls } from './config.js';
import { createGaranzieSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'garanzie', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'garanzie',
    create: (deps) => createGaranzieSubgraph(deps, stripeSettings),
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('garanzie failed to start', { error });
  process.exit(1);
}
