import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId, serverUrls, uniqueName } from '@coperto/testkit';
import { startDistributed, startProcess, type ProcessHandle, type Stack } from './support/stack.js';

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as any, text: '' };
};

describe('process lifecycle, health and metrics (distributed mode)', () => {
  let stack: Stack & { processes: ProcessHandle[]; subgraphs: Record<string, ProcessHandle[]> };

  beforeAll(async () => {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    stack = await startDistributed({ mongoUrl, natsUrl, redisUrl, database: uniqueName('life') });
  });
  afterAll(async () => stack?.close());

  it('reports each subgraph process healthy with its dependencies, and detailed figures to loopback', async () => {
    for (const handle of stack.processes) {
      const base = `http://127.0.0.1:${handle.healthPort}`;
      const ready = await get(`${base}/public/health/ready`);
      expect(ready.status, handle.name).toBe(200);
      expect(ready.body.checks.bus.status).toBe('up');
      expect(ready.body.checks.cache.status).toBe('up');
      const overview = await get(`${base}/public/health/overview`);
      expect(overview.body).toMatchObject({ status: expect.any(String), version: expect.any(String) });
      expect(Number.isInteger(overview.body.uptime)).toBe(true);
      const detailed = await get(`${base}/public/health/detailed`);
      expect(detailed.status).toBe(200);
      expect(detailed.body.memory.rss).toBeGreaterThan(0);
      if (handle.name !== 'gateway') {
        expect(ready.body.checks.database).toMatchObject({ status: 'up', latency: expect.any(Number) });
        expect(detailed.body.checks.database).toMatchObject({ database: expect.any(String) });
        expect(overview.body.services).toEqual([handle.name.split('#')[0]]);
      }
      const familyB = await get(`${base}/health`);
      expect(familyB.body).toMatchObject({
        status: 'ok',
        transporter: { connected: true },
        cacher: { connected: true },
      });
    }
  });

  it('counts requests in Prometheus text on the metrics port', async () => {
    const token = await mintToken({ tenantId: newTenantId() });
    await stack.api('GET', '/api/sale', { token });
    const gateway = stack.processes.find((p) => p.name === 'gateway')!;
    const text = await (await fetch(`http://127.0.0.1:${gateway.metricsPort}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{[^}]*route="\/api\/sale"[^}]*status="200"[^}]*\} [1-9]\d*/);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('on SIGTERM goes not-ready at once, then exits 0', async () => {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    const sala = await startProcess('sala-sigterm', 'subgraphs/sala/src/index.ts', {
      MONGO_URL: mongoUrl,
      MONGO_DATABASE: uniqueName('sigterm'),
      NATS_URL: natsUrl,
      REDIS_URL: redisUrl,
      SHUTDOWN_DRAIN_MS: '1500',
    });
    const base = `http://127.0.0.1:${sala.healthPort}`;
    expect((await get(`${base}/public/health/ready`)).status).toBe(200);
    const exit = sala.stop('SIGTERM');
    let sawNotReady = false;
    const deadline = Date.now() + 1400;
    while (Date.now() < deadline) {
      const ready = await get(`${base}/public/health/ready`).catch(() => null);
      if (ready?.status === 503) {
        sawNotReady = true;
        expect(ready.body.status).toBe('not_ready');
        expect((await get(`${base}/public/health/live`)).status).toBe(200);
        break;
      }
    }
    expect(sawNotReady).toBe(true);
    expect(await exit).toBe(0);
  });
});
