/**
 * CORS on the gateway's fastify app (cors.ts) through `inject()`: which paths are covered, what an allowed, a
 * refused and a missing Origin get, and preflights. The e2e suite (test/cors.e2e.test.ts) checks the same through
 * the whole stack in both modes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCors } from '../src/http/cors.js';

const ALLOWED = 'http://waiter.example';
const EXPOSED = 'x-request-id, retry-after, x-cache, www-authenticate';

async function appWith(origins: readonly string[]): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await registerCors(app, origins);
  app.get('/api/tavoli', async () => ({ ok: true }));
  app.post('/graphql', async () => ({ ok: true }));
  app.get('/openapi.json', async () => ({ ok: true }));
  app.get('/docs', async () => 'docs');
  await app.ready();
  return app;
}

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

describe('CORS (CORS_ORIGINS with exact origins)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith([ALLOWED, 'http://backoffice.example']);
  });
  afterAll(async () => app?.close());

  it('gives an allowed origin its own origin and the exposed headers on /api, /graphql and /openapi.json', async () => {
    for (const [method, url] of [
      ['GET', '/api/tavoli'],
      ['POST', '/graphql'],
      ['GET', '/openapi.json'],
    ] as const) {
      const res = await app.inject({ method, url, headers: { origin: ALLOWED } });
      expect(res.statusCode, url).toBe(200);
      expect(corsHeaders(res.headers), url).toEqual({
        'access-control-allow-origin': ALLOWED,
        'access-control-expose-headers': EXPOSED,
      });
      expect(res.headers.vary, url).toBe('Origin');
    }
  });

  it('gives another origin, or a request without one, no CORS headers, only Vary: Origin', async () => {
    for (const headers of [{ origin: 'http://evil.example' }, {}]) {
      const res = await app.inject({ method: 'GET', url: '/api/tavoli?x=1', headers });
      expect(res.statusCode).toBe(200);
      expect(corsHeaders(res.headers)).toEqual({});
      expect(res.headers.vary).toBe('Origin');
    }
  });

  it('answers the preflight of an allowed origin with 204 and what may be sent', async () => {
    for (const requestMethod of ['PUT', undefined]) {
      const res = await app.inject({
        method: 'OPTIONS',
        url: '/api/tavoli/abc/status',
        headers: {
          origin: ALLOWED,
          ...(requestMethod ? { 'access-control-request-method': requestMethod } : {}),
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['content-length']).toBe('0');
      expect(res.body).toBe('');
      expect(corsHeaders(res.headers)).toEqual({
        'access-control-allow-origin': ALLOWED,
        'access-control-expose-headers': EXPOSED,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type, x-request-id, apollo-require-preflight',
        'access-control-max-age': '600',
      });
      expect(res.headers.vary).toBe('Origin');
    }
  });

  it('does not answer the preflight of another origin, or of a path it does not cover (404)', async () => {
    for (const [url, origin] of [
      ['/api/tavoli', 'http://evil.example'],
      ['/docs', ALLOWED],
      ['/elsewhere', ALLOWED],
    ] as const) {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      expect(res.statusCode, url).toBe(404);
      expect(corsHeaders(res.headers), url).toEqual({});
    }
  });

  it('leaves the paths it does not cover alone, and covers a 404 under /api', async () => {
    const docs = await app.inject({ method: 'GET', url: '/docs', headers: { origin: ALLOWED } });
    expect(docs.statusCode).toBe(200);
    expect(corsHeaders(docs.headers)).toEqual({});
    const missing = await app.inject({ method: 'GET', url: '/api/nothing', headers: { origin: ALLOWED } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});

describe('CORS with `*` and with no origins', () => {
  it('`*` echoes any origin (never a literal `*`)', async () => {
    const app = await appWith(['*']);
    const res = await app.inject({
      method: 'GET',
      url: '/api/tavoli',
      headers: { origin: 'http://any.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('http://any.example');
    const none = await app.inject({ method: 'GET', url: '/api/tavoli' });
    expect(corsHeaders(none.headers)).toEqual({});
    await app.close();
  });

  it('no origins: nobody is allowed', async () => {
    const app = await appWith([]);
    const res = await app.inject({ method: 'GET', url: '/api/tavoli', headers: { origin: ALLOWED } });
    expect(corsHeaders(res.headers)).toEqual({});
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/api/tavoli',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(pre.statusCode).toBe(404);
    await app.close();
  });
});
