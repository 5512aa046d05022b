/**
 * The health server against REAL private servers (redis-server, nats-server, mongo-java-server), killed,
 * paused and restarted on the same port. Liveness must never follow them; readiness must, within its budget.
 */
import { connectRedisCache, type Cache } from '@coperto/cache';
import {
  startMongoServer,
  startNatsServer,
  startRedisServer,
  uniqueName,
  type TestServer,
} from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthServer, type HealthServer } from '../src/index.js';
import { getJson, until, type JsonResponse } from './helpers.js';
import { cacheProbe, mongoProbe, natsProbe, type Closable } from './raw-probes.js';

const CHECK_TIMEOUT_MS = 500;

describe('health against real dependencies that fail and come back', () => {
  let redis: TestServer;
  let nats: TestServer;
  let mongo: TestServer;
  let cache: Cache;
  let bus: Closable;
  let database: Closable;
  let health: HealthServer;
  let base: string;
  const database_name = uniqueName('health');

  const ready = () => getJson(`${base}/public/health/ready`, { signal: AbortSignal.timeout(5000) });
  const live = () => getJson(`${base}/public/health/live`, { signal: AbortSignal.timeout(5000) });
  const familyB = () => getJson(`${base}/health`, { signal: AbortSignal.timeout(5000) });

  /** Polls /ready until `accept` holds (bounded), and returns that answer. */
  async function readyWhen(
    what: string,
    accept: (res: JsonResponse) => boolean,
    ms = 30_000,
  ): Promise<JsonResponse> {
    let last: JsonResponse | undefined;
    await until(
      what,
      async () => {
        last = await ready();
        return accept(last);
      },
      ms,
    );
    return last as JsonResponse;
  }
  const allUp = (res: JsonResponse) => res.status === 200 && res.body.checks.bus?.status === 'up';

  beforeAll(async () => {
    [redis, nats, mongo] = await Promise.all([startRedisServer(), startNatsServer(), startMongoServer()]);
    cache = await connectRedisCache({
      url: redis.url,
      keyPrefix: uniqueName('health'),
      commandTimeoutMs: 2000,
      maxReconnectDelayMs: 200,
      onError: () => undefined,
    });
    [bus, database] = await Promise.all([natsProbe(nats.url), mongoProbe(mongo.url, database_name)]);
    health = createHealthServer({
      nodeId: 'integration-1',
      nodeType: 'tavolo',
      version: '0.1.0',
      frameworkVersion: '0.1.0',
      services: () => ['tavolo'],
      dependencies: { database: database.probe, cache: cacheProbe(cache), bus: bus.probe },
      checkTimeoutMs: CHECK_TIMEOUT_MS,
      checkCacheMs: 0,
    });
    base = `http://127.0.0.1:${(await health.listen(0, '127.0.0.1')).port}`;
  });

  afterAll(async () => {
    await health?.close();
    await Promise.allSettled([cache?.close(), bus?.close(), database?.close()]);
    await Promise.allSettled([redis?.stop(), nats?.stop(), mongo?.stop()]);
  });

  it('all up: ready 200, detailed shows what each dependency reports, /health ok', async () => {
    const res = await readyWhen('all up', allUp);
    expect(res.body).toMatchObject({
      status: 'ready',
      checks: { database: { status: 'up' }, cache: { status: 'up' }, bus: { status: 'up' } },
    });
    const detailed = await getJson(`${base}/public/health/detailed`);
    expect(detailed.body.checks.database).toMatchObject({
      status: 'up',
      poolSize: 5,
      database: database_name,
    });
    expect(detailed.body.checks.database.availableConnections).toEqual(expect.any(Number));
    expect(detailed.body.checks.cache).toMatchObject({
      status: 'up',
      memoryUsed: expect.stringMatching(/[BKMG]$/),
    });
    expect(detailed.body.checks.cache.connectedClients).toBeGreaterThanOrEqual(1);
    expect(detailed.body.checks.bus).toMatchObject({ status: 'up', reconnects: 0 });
    expect((await familyB()).body).toMatchObject({
      status: 'ok',
      transporter: { connected: true },
      cacher: { connected: true },
    });
  });

  it('Redis killed: ready 503 with cache down and an error string, live 200; restarted: ready 200', async () => {
    await redis.kill();
    const down = await readyWhen('cache down', (res) => res.body.checks.cache?.status === 'down');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('not_ready');
    expect(down.body.checks.cache.error).toEqual(expect.any(String));
    expect(down.body.checks.cache.error.length).toBeGreaterThan(0);
    expect(down.body.checks.database.status).toBe('up');
    expect(down.body.checks.bus.status).toBe('up');
    expect((await live()).status).toBe(200);
    await until('cacher disconnected', async () => (await familyB()).body.cacher.connected === false);
    expect((await familyB()).status).toBe(503);

    await redis.restart();
    const back = await readyWhen('cache back', (res) => res.status === 200);
    expect(back.body.checks.cache.status).toBe('up');
    await until('cacher connected', async () => (await familyB()).status === 200);
  });

  it('NATS killed: ready 503 with bus down, live 200; restarted: ready 200 and a reconnect counted', async () => {
    await nats.kill();
    const down = await readyWhen('bus down', (res) => res.body.checks.bus?.status === 'down');
    expect(down.status).toBe(503);
    expect(down.body.checks.bus.error).toEqual(expect.any(String));
    expect(down.body.checks.cache.status).toBe('up');
    expect((await live()).status).toBe(200);
    expect((await familyB()).body).toMatchObject({ status: 'error', transporter: { connected: false } });

    await nats.restart();
    await readyWhen('bus back', (res) => res.status === 200);
    const detailed = await getJson(`${base}/public/health/detailed`);
    expect(detailed.body.checks.bus.reconnects).toBeGreaterThanOrEqual(1);
  });

  it('MongoDB killed: ready 503 with database down, live 200; restarted: ready 200', async () => {
    await mongo.kill();
    const down = await readyWhen('database down', (res) => res.body.checks.database?.status === 'down');
    expect(down.status).toBe(503);
    expect(down.body.checks.database.error).toEqual(expect.any(String));
    expect(down.body.checks.database.error).not.toMatch(/\n|\s+at\s/);
    expect((await live()).status).toBe(200);

    await mongo.restart();
    const back = await readyWhen('database back', (res) => res.status === 200, 45_000);
    expect(back.body.checks.database.status).toBe('up');
  });

  it('Redis paused (SIGSTOP): ready answers within its budget with a timeout error; resumed: ready 200', async () => {
    await readyWhen('all up before the pause', allUp);
    redis.pause();
    try {
      // The client must get an answer long before the orchestrator's 5 s probe timeout.
      const res = await getJson(`${base}/public/health/ready`, {
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS + 2000),
      });
      expect(res.status).toBe(503);
      expect(res.body.checks.cache).toEqual({
        status: 'down',
        error: `timeout after ${CHECK_TIMEOUT_MS} ms`,
      });
      expect(res.body.checks.database.status).toBe('up');
      expect((await live()).status).toBe(200);
    } finally {
      redis.resume();
    }
    await readyWhen('ready after resume', (res) => res.status === 200);
  });
});
