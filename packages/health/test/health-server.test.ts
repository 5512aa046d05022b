import { networkInterfaces } from 'node:os';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHealthServer, type Probe } from '../src/index.js';
import { registerHealthRoutes, type HealthRoutes } from '../src/routes.js';
import { deferred, getJson, healthServers, identity, never, until } from './helpers.js';

const servers = healthServers();
afterEach(() => servers.closeAll());

const healthy = (details: Record<string, unknown> = {}): Probe => ({
  ping: async () => 'ok',
  details: async () => details,
  connected: () => true,
});
const refusing = (message: string): Probe => ({
  ping: () => Promise.reject(new Error(message)),
  connected: () => false,
});
const allHealthy = () => ({
  database: healthy({ poolSize: 10, availableConnections: 9, database: 'coperto' }),
  cache: healthy({ memoryUsed: '1.00M', connectedClients: 2 }),
  bus: healthy({ reconnects: 0 }),
});

describe('health server: Family A', () => {
  it('live: 200 alive with a timestamp, JSON, not cacheable', async () => {
    const { base } = await servers.start();
    const res = await getJson(`${base}/public/health/live`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('alive');
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('live does not depend on the dependencies', async () => {
    const { base } = await servers.start({
      dependencies: { database: refusing('down'), cache: { ping: () => never() }, bus: refusing('down') },
      checkTimeoutMs: 100,
    });
    expect((await getJson(`${base}/public/health/live`)).status).toBe(200);
    expect((await getJson(`${base}/public/health/ready`)).status).toBe(503);
  });

  it('ready: 200 with an up entry and integer latency for each dependency', async () => {
    const { base } = await servers.start({ dependencies: allHealthy() });
    const res = await getJson(`${base}/public/health/ready`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
    expect(Object.keys(res.body.checks)).toEqual(['database', 'cache', 'bus']);
    for (const entry of Object.values(res.body.checks) as Array<{ status: string; latency: number }>) {
      expect(entry.status).toBe('up');
      expect(Number.isInteger(entry.latency)).toBe(true);
    }
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('ready: 503 not_ready with the failing entry down and a safe error string', async () => {
    const { base } = await servers.start({
      dependencies: {
        ...allHealthy(),
        database: refusing(
          'connect ECONNREFUSED mongodb://root:topsecret@db:27017/x\n    at Socket.<anonymous>',
        ),
      },
    });
    const res = await getJson(`${base}/public/health/ready`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'not_ready', checks: { database: { status: 'down' } } });
    expect(res.body.checks.database.error).toBe('connect ECONNREFUSED mongodb://<redacted>');
    expect(JSON.stringify(res.body)).not.toMatch(/topsecret|at Socket/);
    expect(res.body.checks.cache).toMatchObject({ status: 'up' });
  });

  it('ready: a hanging dependency is down with a timeout, answered within the budget', async () => {
    const { base } = await servers.start({
      dependencies: { ...allHealthy(), bus: { ping: () => never() } },
      checkTimeoutMs: 150,
    });
    const res = await getJson(`${base}/public/health/ready`, { signal: AbortSignal.timeout(3000) });
    expect(res.status).toBe(503);
    expect(res.body.checks.bus).toEqual({ status: 'down', error: 'timeout after 150 ms' });
  });

  it('ready: a toggled-off dependency is reported down but the node stays ready', async () => {
    const { base } = await servers.start({
      dependencies: { ...allHealthy(), cache: refusing('Connection is closed.') },
      readiness: { cache: false },
    });
    const res = await getJson(`${base}/public/health/ready`);
    expect(res.status).toBe(200);
    expect(res.body.checks.cache).toEqual({ status: 'down', error: 'Connection is closed.' });
    const overview = await getJson(`${base}/public/health/overview`);
    expect(overview.body.status).toBe('degraded');
  });

  it('ready: 503 at once after setShuttingDown, and while the main port is not serving', async () => {
    let serving = false;
    const { base, server } = await servers.start({ dependencies: allHealthy(), isServing: () => serving });
    expect((await getJson(`${base}/public/health/ready`)).body).toMatchObject({
      status: 'not_ready',
      reason: 'not_serving',
    });
    serving = true;
    expect((await getJson(`${base}/public/health/ready`)).status).toBe(200);
    server.setShuttingDown();
    expect(server.isShuttingDown()).toBe(true);
    const res = await getJson(`${base}/public/health/ready`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'not_ready', reason: 'shutting_down' });
    expect((await getJson(`${base}/public/health/live`)).status).toBe(200);
    expect((await getJson(`${base}/public/health/overview`)).body.status).toBe('stopping');
  });

  it('ready: concurrent probes share one round of pings (single flight)', async () => {
    let pings = 0;
    const gate = deferred();
    const slow: Probe = {
      ping: async () => {
        pings += 1;
        await gate.promise;
      },
    };
    // A long reuse window: a request that arrives after the round ends reuses it instead of pinging again.
    const { base } = await servers.start({
      dependencies: { database: slow },
      checkCacheMs: 60_000,
      checkTimeoutMs: 5000,
    });
    const answers = Promise.all(Array.from({ length: 8 }, () => getJson(`${base}/public/health/ready`)));
    await until('first ping', () => pings > 0);
    await new Promise((r) => setTimeout(r, 100)); // let the other seven arrive while the round is in flight
    gate.resolve();
    const results = await answers;
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(pings).toBe(1);
  });

  it('ready: without a reuse window every new round pings again', async () => {
    let pings = 0;
    const counted: Probe = {
      ping: async () => {
        pings += 1;
      },
    };
    const { base } = await servers.start({ dependencies: { database: counted }, checkCacheMs: 0 });
    for (let i = 0; i < 3; i++) await getJson(`${base}/public/health/ready`);
    expect(pings).toBe(3);
  });

  it('ready: a finished round is reused for checkCacheMs', async () => {
    let pings = 0;
    const counted: Probe = {
      ping: async () => {
        pings += 1;
      },
    };
    const { base } = await servers.start({ dependencies: { database: counted }, checkCacheMs: 60_000 });
    for (let i = 0; i < 5; i++) await getJson(`${base}/public/health/ready`);
    expect(pings).toBe(1);
  });

  it('ready: dependencies the process does not have are left out', async () => {
    const { base } = await servers.start({ dependencies: { bus: healthy() } });
    const res = await getJson(`${base}/public/health/ready`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.checks)).toEqual(['bus']);
  });

  it('overview: identity, integer uptime, services, status', async () => {
    const { base } = await servers.start({ dependencies: allHealthy() });
    const res = await getJson(`${base}/public/health/overview`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      nodeID: 'tavolo-test-1',
      nodeType: 'tavolo',
      status: 'up',
      uptime: expect.any(Number),
      services: ['tavolo', 'sala'],
      version: '1.2.3',
      frameworkVersion: 'coperto-0.1.0',
    });
    expect(Number.isInteger(res.body.uptime)).toBe(true);
  });

  it('detailed: process figures, dependency details and custom checks (throwing and hanging ones down)', async () => {
    const { base, server } = await servers.start({ dependencies: allHealthy(), checkTimeoutMs: 150 });
    server.registerCheck('outbox', async () => ({ status: 'degraded', queueLength: 42, lastSuccess: 'now' }));
    server.registerCheck('sync', async () => {
      throw new Error('sync worker crashed\n    at worker.js:10');
    });
    server.registerCheck('slow', () => never());
    const res = await getJson(`${base}/public/health/detailed`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ nodeID: 'tavolo-test-1', status: 'degraded' });
    expect(Number.isInteger(body.uptime)).toBe(true);
    for (const key of ['heapUsed', 'heapTotal', 'rss', 'external'])
      expect(Number.isInteger(body.memory[key])).toBe(true);
    for (const key of ['user', 'system']) expect(Number.isInteger(body.cpu[key])).toBe(true);
    expect(body.checks.database).toMatchObject({
      status: 'up',
      poolSize: 10,
      availableConnections: 9,
      database: 'coperto',
    });
    expect(body.checks.cache).toMatchObject({ status: 'up', memoryUsed: '1.00M', connectedClients: 2 });
    expect(body.checks.bus).toMatchObject({ status: 'up', reconnects: 0 });
    expect(Number.isInteger(body.checks.bus.latency)).toBe(true);
    expect(body.customChecks).toEqual({
      outbox: { status: 'degraded', queueLength: 42, lastSuccess: 'now' },
      sync: { status: 'down', error: 'sync worker crashed' },
      slow: { status: 'down', error: 'timeout after 150 ms' },
    });
    expect(body.eventLoop).toMatchObject({ p50: expect.any(Number), p99: expect.any(Number) });
  });

  it('custom checks never decide readiness; a removed check disappears', async () => {
    const { base, server } = await servers.start({ dependencies: allHealthy() });
    const remove = server.registerCheck('broken', async () => ({ status: 'down', error: 'x' }));
    expect((await getJson(`${base}/public/health/ready`)).status).toBe(200);
    expect((await getJson(`${base}/public/health/detailed`)).body.customChecks).toHaveProperty('broken');
    remove();
    expect((await getJson(`${base}/public/health/detailed`)).body.customChecks).toEqual({});
    expect(() => server.registerCheck('', async () => ({ status: 'up' }))).toThrow(TypeError);
  });
});

describe('health server: Family B', () => {
  it('/health: ok with the connection flags, service count and uptime', async () => {
    const { base } = await servers.start({ dependencies: allHealthy() });
    const res = await getJson(`${base}/health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      transporter: { connected: true },
      cacher: { connected: true },
      broker: { started: true },
      services: 2,
      uptime: expect.any(Number),
    });
  });

  it('/health: 503 error when the bus is disconnected, and when shutting down', async () => {
    const { base, server } = await servers.start({
      dependencies: { ...allHealthy(), bus: refusing('down') },
    });
    const res = await getJson(`${base}/health`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      status: 'error',
      transporter: { connected: false },
      cacher: { connected: true },
    });

    const other = await servers.start({ dependencies: allHealthy() });
    other.server.setShuttingDown();
    expect((await getJson(`${other.base}/health`)).body.status).toBe('error');
    expect(server.isShuttingDown()).toBe(false);
  });
});

describe('health server: HTTP', () => {
  it('404 JSON for an unknown path, 405 with Allow for other methods, HEAD without a body', async () => {
    const { http } = await servers.start();
    const missing = await http.inject({ method: 'GET', url: '/public/health/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
      // A body the server has no parser for: the 405 is answered before any body is read.
      const res = await http.inject({
        method,
        url: '/public/health/ready',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
    }
    const head = await http.inject({ method: 'HEAD', url: '/public/health/live' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect((await http.inject({ method: 'HEAD', url: '/nope' })).statusCode).toBe(404);
    expect((await http.inject({ method: 'GET', url: '/public/health/live?probe=k8s' })).statusCode).toBe(200);
  });

  it('the same answers over a real socket (the port a probe calls)', async () => {
    const { base } = await servers.start();
    const live = await getJson(`${base}/public/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get('x-content-type-options')).toBe('nosniff');
    const post = await getJson(`${base}/public/health/ready`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    const head = await fetch(`${base}/public/health/live`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('detailed answers loopback', async () => {
    const { base } = await servers.start();
    expect((await getJson(`${base}/public/health/detailed`)).status).toBe(200);
  });

  const routesFor = (allow: (address: string | undefined) => boolean): HealthRoutes => ({
    live: () => ({ status: 200, body: {} }),
    ready: async () => {
      throw new Error('probe exploded');
    },
    overview: async () => ({ status: 200, body: {} }),
    detailed: async () => ({ status: 200, body: { secret: 'internal' } }),
    familyB: () => ({ status: 200, body: {} }),
    allowDetailed: allow,
  });

  it('detailed is 403 when the peer is not allowed (the rule sees the socket peer, not X-Forwarded-For)', async () => {
    const seen: Array<string | undefined> = [];
    const app = Fastify();
    registerHealthRoutes(
      app,
      routesFor((address) => {
        seen.push(address);
        return address === '127.0.0.1';
      }),
    );
    const outside = await app.inject({
      method: 'GET',
      url: '/public/health/detailed',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
    const inside = await app.inject({
      method: 'GET',
      url: '/public/health/detailed',
      remoteAddress: '127.0.0.1',
    });
    expect(inside.statusCode).toBe(200);
    expect(inside.json()).toEqual({ secret: 'internal' });
    expect(seen).toEqual(['203.0.113.7', '127.0.0.1']);
    await app.close();
  });

  it('an answer that throws is a 500 INTERNAL in the REST error shape', async () => {
    const app = Fastify();
    registerHealthRoutes(
      app,
      routesFor(() => true),
    );
    const res = await app.inject({ method: 'GET', url: '/public/health/ready' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error' } });
    expect(JSON.stringify(res.json())).not.toContain('exploded');
    await app.close();
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(!external)(
    'detailed over a non-loopback address: 403, then 200 once its network is allowed',
    async () => {
      const host = external as string;
      const denied = await servers.start({}, host);
      const res = await getJson(`${denied.base}/public/health/detailed`);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('memory');
      expect((await getJson(`${denied.base}/public/health/overview`)).status).toBe(200);
      const allowed = await servers.start({ detailedAllowedNetworks: [`${host}/32`] }, host);
      expect((await getJson(`${allowed.base}/public/health/detailed`)).status).toBe(200);
    },
  );

  it('validates its options', () => {
    expect(() => createHealthServer({ ...identity, nodeId: '' })).toThrow(TypeError);
    expect(() => createHealthServer({ ...identity, checkTimeoutMs: 0 })).toThrow(TypeError);
    expect(() => createHealthServer({ ...identity, detailedAllowedNetworks: ['not-a-cidr'] })).toThrow(
      TypeError,
    );
  });

  it('close() is idempotent and stops answering', async () => {
    const { base, server } = await servers.start();
    await server.close();
    await server.close();
    await expect(fetch(`${base}/public/health/live`)).rejects.toThrow();
  });
});
