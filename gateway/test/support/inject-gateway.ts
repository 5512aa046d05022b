import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@coperto/server-kit';
import { TEST_JWT_SECRET } from '@coperto/testkit';
import { readGatewayConfig, startGatewayApp } from '../../src/host/app.js';

/** The embedded gateway (subgraphs in-process, embedded store) whose HTTP layer a test calls with `inject`. */
export async function injectableGateway(
  env: Record<string, string> = {},
): Promise<{ http: FastifyInstance; port: number; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-gateway-'));
  const config = readGatewayConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    HEALTH_PORT: '0',
    METRICS_PORT: '0',
    DATA_DIR: dataDir,
    COPERTO_MODE: 'embedded',
    JWT_SECRET: TEST_JWT_SECRET,
    RESTAURANT_TIMEZONE: 'Europe/Rome',
    APOLLO_TELEMETRY_DISABLED: '1',
    ...env,
  });
  const app = await startGatewayApp(config, createLogger({ name: 'inject', level: 'silent' }), {
    handleSignals: false,
  });
  return {
    http: app.gateway.http,
    /** The app port, listening on loopback (for what only a real socket can send). */
    port: app.ports.app,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
