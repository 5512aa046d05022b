// The promemoria subgraph as its own process (distributed mode): MongoDB, NATS and Redis from the environment.
import { createLogger, startSubgraphProcess } from '@coperto/server-kit';
import { config, mailSettings, subgraphUrls } from './config.js';
import { createPromemoriaSubgraph } from './subgraph.js';

const logger = createLogger({ name: 'promemoria', level: config.LOG_LEVEL });
try {
  await startSubgraphProcess({
    name: 'promemoria',
    create: (deps) =>
      createPromemoriaSubgraph(deps, mailSettings, {
        onError: (error) => logger.warn('reminders: will retry', { error }),
      }),
    config,
    subgraphUrls,
    logger,
  });
} catch (error) {
  logger.error('promemoria failed to start', { error });
  process.exit(1);
}
