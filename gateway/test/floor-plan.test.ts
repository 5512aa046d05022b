import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFloorPlanHandler } from '../src/floor-plan.js';

describe('floor plan static handler', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const serve = createFloorPlanHandler();
    server = createServer((req, res) => {
      if (!serve(req, res, (req.url ?? '/').split('?')[0]!)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the page at / with a same-origin content security policy', async () => {
    const res = await fetch(`${base}/?x=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).toContain('/floor-plan/app.js');
  });

  it('serves its modules and graphql-ws’s browser build, as JavaScript', async () => {
    for (const path of [
      '/floor-plan/app.js',
      '/floor-plan/floor-plan.css',
      '/floor-plan/vendor/graphql-ws.js',
    ]) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
    }
    const vendor = await fetch(`${base}/floor-plan/vendor/graphql-ws.js`);
    expect(vendor.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await vendor.text()).toContain('graphqlWs');
  });

  it('leaves anything else to the caller: other paths, traversal, other methods', async () => {
    expect((await fetch(`${base}/floor-plan/nope.js`)).status).toBe(404);
    expect((await fetch(`${base}/floor-plan/%2e%2e/src/floor-plan.ts`)).status).toBe(404);
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(404);
    const head = await fetch(`${base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});
