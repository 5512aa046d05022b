// The gateway process: reads its configuration, starts (embedded: everything in this process), handles signals.
import { createLogger } from '@coperto/server-kit';
import { startGatewayApp } from './host/app.js';
import { readGatewayConfig } from './config.js';

const config = readGatewayConfig();
const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
try {
  await startGatewayApp(config, logger);
} catch (error) {
  logger.error('gateway failed to start', { error });
  process.exit(1);
}
