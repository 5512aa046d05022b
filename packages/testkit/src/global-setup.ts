/**
 * Vitest global setup: starts one MongoDB-protocol, one NATS (JetStream) and one Redis server for the whole
 * run, unless MONGO_URL / NATS_URL / REDIS_URL already point at servers (which are then used and left alone).
 * Tests read the URLs with `serverUrls()` from @coperto/testkit. Fault tests start private servers instead.
 */
import type { TestProject } from 'vitest/node';
import type {} from './server-urls.js';
import { startMongoServer, startNatsServer, startRedisServer, type TestServer } from './servers.js';

export default async function setup(project: TestProject) {
  const started: TestServer[] = [];
  const use = async (envUrl: string | undefined, start: () => Promise<TestServer>) => {
    if (envUrl) return envUrl;
    const server = await start();
    started.push(server);
    return server.url;
  };
  try {
    const [mongoUrl, natsUrl, redisUrl] = await Promise.all([
      use(process.env.MONGO_URL, () => startMongoServer()),
      use(process.env.NATS_URL, () => startNatsServer()),
      use(process.env.REDIS_URL, () => startRedisServer()),
    ]);
    project.provide('serverUrls', { mongoUrl, natsUrl, redisUrl });
  } catch (error) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw error;
  }
  return async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
  };
}
