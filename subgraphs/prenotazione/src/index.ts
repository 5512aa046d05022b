// The prenotazione subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, subgraphUrls } from './config.js';
import { createPrenotazioneSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'prenotazione', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'prenotazione',
    create: createPrenotazioneSubgraph,
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('prenotazione failed to start', { error });
  process.exit(1);
}
