import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFloorPlan } from '../src/pages/floor-plan.js';

describe('floor plan static routes', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    registerFloorPlan(app);
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves the page at / with a same-origin content security policy', async () => {
    const res = await app.inject({ url: '/?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.body).toContain('/floor-plan/app.js');
  });

  it('serves its modules and the browser builds of graphql-ws and Chart.js, as JavaScript', async () => {
    for (const path of [
      '/floor-plan/app.js',
      '/floor-plan/floor-plan.css',
      '/floor-plan/vendor/graphql-ws.js',
    ]) {
      const res = await app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
    }
    const vendor = await app.inject({ url: '/floor-plan/vendor/graphql-ws.js' });
    expect(vendor.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(vendor.body).toContain('graphqlWs');
    const chart = await app.inject({ url: '/floor-plan/vendor/chart.js' });
    expect(chart.statusCode).toBe(200);
    expect(chart.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // Chart.js's UMD build: it defines the global the report view draws with.
    expect(chart.body).toMatch(/^\/\*![\s\S]*Chart\.js v4\./);
  });

  it('serves nothing else: other paths, traversal, other methods; HEAD without a body', async () => {
    expect((await app.inject({ url: '/floor-plan/nope.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/floor-plan/%2e%2e/src/floor-plan.ts' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/', method: 'POST' })).statusCode).toBe(404);
    const head = await app.inject({ url: '/', method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
