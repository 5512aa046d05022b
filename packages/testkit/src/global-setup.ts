/**
 * Vitest global setup: starts one MongoDB-protocol, one NATS (JetStream), one Redis server and one stripe-mock for the whole
 * run, unless MONGO_URL / NATS_URL / REDIS_URL already point at servers (which are then used and left alone).
 * Tests read the URLs with `serverUrls()` from @coperto/testkit. Fault tests start private servers instead.
 */
import type { TestProject } from 'vitest/node';
import type {} from './server-urls.js';
import {
  startMongoServer,
  startNatsServer,
  startRedisServer,
  startStripeMock,
  type TestServer,
} from './servers.js';
import type {} from './stripe-mock-url.js';

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
    // stripe-mock (garanzie's tests), unless STRIPE_MOCK_URL points at one.
    project.provide('stripeMockUrl', await use(process.env.STRIPE_MOCK_URL, () => startStripeMock()));
  } catch (error) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw error;
  }
  return async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
  };
}
