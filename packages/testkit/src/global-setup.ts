/**
 * Vitest global setup: starts one MongoDB-protocol, one NATS (JetStream), one Redis server, one stripe-mock and one
 * mailpit (SMTP) for the whole run, unless MONGO_URL / NATS_URL / REDIS_URL / STRIPE_MOCK_URL already point at servers
 * (which are then used and left alone). Stopped by the teardown below, whatever happened to the test workers.
 * Tests read the URLs with `serverUrls()` from @coperto/testkit. Fault tests start private servers instead.
 * The services reach stripe-mock through a pass-through that keeps what it refused: any refusal fails the run
 * (stripe-mock-watch.ts).
 */
import type { TestProject } from 'vitest/node';
import { startMailpit } from './mailpit.js';
import type {} from './server-urls.js';
import {
  startMongoServer,
  startNatsServer,
  startRedisServer,
  startStripeMock,
  type TestServer,
} from './servers.js';
import type {} from './stripe-mock-url.js';
import { describeRefusals, watchStripeMock, type StripeMockWatch } from './stripe-mock-watch.js';

export default async function setup(project: TestProject) {
  const started: Array<Pick<TestServer, 'stop'>> = [];
  let stripe: StripeMockWatch | undefined;
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
    stripe = await watchStripeMock(await use(process.env.STRIPE_MOCK_URL, () => startStripeMock()));
    started.push(stripe);
    project.provide('stripeMockUrl', stripe.url);
    // The SMTP server the shared e2e stacks send their emails through (test/support/modes.ts).
    const mailpit = await startMailpit();
    started.push(mailpit);
    project.provide('mailpit', mailpit.urls);
  } catch (error) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw error;
  }
  return async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
    const refused = stripe?.refusals() ?? [];
    if (refused.length > 0) {
      console.error(describeRefusals(refused));
      // A teardown's error does not fail a vitest run; the exit code does.
      process.exitCode = 1;
    }
  };
}
