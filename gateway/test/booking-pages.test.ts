import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGE_PAGE_POLICY, registerBookingPages } from '../src/pages/prenota/serve.js';

describe("the guests' pages (static routes)", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    registerBookingPages(app);
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves both pages and their assets with no referrer, each page with its own policy', async () => {
    const booking = await app.inject({ url: '/prenota' });
    expect(booking.statusCode).toBe(200);
    expect(booking.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(booking.headers['content-security-policy']).not.toContain('stripe');
    const manage = await app.inject({ url: '/prenota/gestisci' });
    expect(manage.headers['content-security-policy']).toBe(MANAGE_PAGE_POLICY);
    const script = await app.inject({ url: '/prenota/assets/booking.js' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-security-policy']).not.toContain('stripe');
    for (const res of [booking, manage, script]) {
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves nothing else: an HTML file only at its page path, other paths; HEAD without a body', async () => {
    expect((await app.inject({ url: '/prenota/assets/booking.html' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/prenota/assets/nope.js' })).statusCode).toBe(404);
    const head = await app.inject({ url: '/prenota', method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
