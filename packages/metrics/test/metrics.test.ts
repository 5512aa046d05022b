import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, createMetricsServer, OVERFLOW_LABEL, type MetricsServer } from '../src/index.js';

const servers: MetricsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(metrics: ReturnType<typeof createMetrics>) {
  const server = createMetricsServer(metrics);
  servers.push(server);
  const { port } = await server.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${port}`;
}

/** The value of one sample line, e.g. `http_requests_total{...} 2`. */
function sample(body: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

describe('metrics over HTTP', () => {
  it('serves Prometheus text with default process metrics and the service label', async () => {
    const base = await serve(createMetrics({ service: 'tavolo', defaultLabels: { node: 'n1' } }));
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();
    expect(body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(body).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(body).toMatch(/process_resident_memory_bytes\{[^}]*service="tavolo"/);
    expect(body).toMatch(/process_resident_memory_bytes\{[^}]*node="n1"/);
    expect(body).toContain('# TYPE http_requests_total counter');
    expect(body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(body).toContain('# TYPE graphql_operations_total counter');
  });

  it('counts requests and GraphQL operations after observe calls', async () => {
    const metrics = createMetrics({ service: 'gateway' });
    const base = await serve(metrics);
    metrics.observeRequest({ method: 'get', route: '/api/tavoli', status: 200, durationMs: 12 });
    metrics.observeRequest({ method: 'GET', route: '/api/tavoli', status: 200, durationMs: 30 });
    metrics.observeRequest({ method: 'PUT', route: '/api/tavoli/:id/status', status: 409, durationMs: 8 });
    const done = metrics.startRequest('POST', '/api/prenotazioni');
    done(201);
    metrics.observeGraphqlOperation('Tavoli', 'success');
    metrics.observeGraphqlOperation(undefined, 'error');

    const body = await (await fetch(`${base}/metrics`)).text();
    const ok = { method: 'GET', route: '/api/tavoli', status: '200', service: 'gateway' };
    expect(sample(body, 'http_requests_total', ok)).toBe(2);
    expect(sample(body, 'http_request_duration_seconds_count', ok)).toBe(2);
    expect(sample(body, 'http_request_duration_seconds_sum', ok)).toBeCloseTo(0.042, 6);
    expect(sample(body, 'http_request_duration_seconds_bucket', { ...ok, le: '0.025' })).toBe(1);
    expect(
      sample(body, 'http_requests_total', { method: 'PUT', route: '/api/tavoli/:id/status', status: '409' }),
    ).toBe(1);
    expect(
      sample(body, 'http_requests_total', { method: 'POST', route: '/api/prenotazioni', status: '201' }),
    ).toBe(1);
    expect(sample(body, 'graphql_operations_total', { operation: 'Tavoli', outcome: 'success' })).toBe(1);
    expect(sample(body, 'graphql_operations_total', { operation: 'anonymous', outcome: 'error' })).toBe(1);
  });

  it('keeps each service in its own registry', async () => {
    const a = createMetrics({ service: 'sala', defaultMetrics: false });
    const b = createMetrics({ service: 'prenotazione', defaultMetrics: false });
    a.observeRequest({ method: 'GET', route: '/api/sale', status: 200, durationMs: 1 });
    const bodyB = (await b.scrape()).body;
    expect(bodyB).not.toContain('/api/sale');
    expect(sample((await a.scrape()).body, 'http_requests_total', { route: '/api/sale' })).toBe(1);
  });

  it('caps free-text label values so clients cannot create unbounded series', async () => {
    const metrics = createMetrics({ service: 'gateway', defaultMetrics: false, maxLabelValues: 2 });
    for (const name of ['A', 'B', 'C', 'D']) metrics.observeGraphqlOperation(name, 'success');
    metrics.observeGraphqlOperation('A', 'success');
    const body = (await metrics.scrape()).body;
    expect(sample(body, 'graphql_operations_total', { operation: 'A' })).toBe(2);
    expect(sample(body, 'graphql_operations_total', { operation: OVERFLOW_LABEL })).toBe(2);
    expect(body).not.toContain('operation="C"');
  });

  it('answers HEAD, 404 for other paths and 405 for other methods (before any body is read), never cached', async () => {
    const { http } = createMetricsServer(createMetrics({ service: 'tavolo', defaultMetrics: false }));
    const get = await http.inject({ method: 'GET', url: '/metrics?x=1' });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(get.headers['cache-control']).toBe('no-store');
    const head = await http.inject({ method: 'HEAD', url: '/metrics' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const other = await http.inject({ method: 'GET', url: '/other' });
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe('Not found: the metrics are at /metrics\n');
    expect(other.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await http.inject({
        method,
        url: '/metrics',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.body).toBe('Method not allowed\n');
    }
    await http.close();
  });

  it('a failing collection is a 500 in plain text without its detail', async () => {
    const metrics = createMetrics({ service: 'tavolo', defaultMetrics: false });
    metrics.gauge('broken_gauge', 'fails at scrape', () => Promise.reject(new Error('secret detail')));
    const { http } = createMetricsServer(metrics);
    const res = await http.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('Metrics collection failed\n');
    await http.close();
  });

  it('serves the same over a real socket (HEAD without a body, 405 for POST)', async () => {
    const base = await serve(createMetrics({ service: 'tavolo', defaultMetrics: false }));
    const head = await fetch(`${base}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('rejects an empty service name', () => {
    expect(() => createMetrics({ service: '' })).toThrow(TypeError);
  });

  it('times GraphQL operations by bounded name, counts rate-limit refusals, reads gauges and totals at scrape', async () => {
    const metrics = createMetrics({ service: 'gateway', defaultMetrics: false });
    metrics.observeGraphqlOperation('ListTavoli', 'success', 12);
    metrics.observeGraphqlOperation('not a name {', 'error', 3);
    metrics.observeGraphqlOperation(null, 'success', 1);
    metrics.observeRateLimited('tenant');
    let backlog = 3;
    let hits = 5;
    metrics.gauge('outbox_backlog', 'backlog', async () => backlog);
    metrics.totalCounter('cache_hits_total', 'hits', () => hits);
    let body = (await metrics.scrape()).body;
    expect(sample(body, 'graphql_operation_duration_seconds_count', { operation: 'ListTavoli' })).toBe(1);
    expect(sample(body, 'graphql_operation_duration_seconds_count', { operation: 'invalid' })).toBe(1);
    expect(sample(body, 'graphql_operation_duration_seconds_count', { operation: 'anonymous' })).toBe(1);
    expect(body).not.toContain('not a name');
    expect(sample(body, 'rate_limited_total', { scope: 'tenant' })).toBe(1);
    expect(sample(body, 'outbox_backlog', {})).toBe(3);
    expect(sample(body, 'cache_hits_total', {})).toBe(5);
    backlog = 0;
    hits = 9;
    body = (await metrics.scrape()).body;
    expect(sample(body, 'outbox_backlog', {})).toBe(0);
    expect(sample(body, 'cache_hits_total', {})).toBe(9);
  });
});
