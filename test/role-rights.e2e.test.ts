// Every route of GET /openapi.json with every role (administrator, staff, a channel key, a booking's guest,
// another tenant's guest), judged against the rights the decisions list (docs/security.md, "Who may call what").
// The table below is written from the decisions, not read from the service: a route added to the service is tried
// here at once (it comes from the document), and a right granted or refused by mistake shows as a mismatch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `METHOD /path` with every path parameter written `{}`. */
type RouteKey = string;

/** A channel key may only search, hold and release with autoAssign, and book (decisions: booking channels). */
const CHANNEL_ROUTES: ReadonlySet<RouteKey> = new Set([
  'GET /api/disponibilita',
  'POST /api/prenotazioni/opzioni',
  'DELETE /api/prenotazioni/opzioni/{}',
  'POST /api/prenotazioni',
]);

/** A guest token may only read, confirm, cancel and change its own booking (decisions: guest tokens). */
const GUEST_ROUTES: ReadonlySet<RouteKey> = new Set([
  'GET /api/prenotazioni/{}',
  'PATCH /api/prenotazioni/{}',
  'POST /api/prenotazioni/{}/conferma',
  'POST /api/prenotazioni/{}/annulla',
]);

/**
 * Routes for administrators only: the decisions' "(administrator)" (channels, the guarantee policy and Stripe
 * account, privacy, reports, webhooks, the Google link and feed, combination writes, forcing a lock), then the
 * settings this project reserved for them where the decisions are silent (docs/security.md says why).
 */
const ADMIN_ROUTES: ReadonlyArray<RegExp> = [
  /^(GET|POST|DELETE) \/api\/canali/,
  /^(GET|PUT) \/api\/garanzie\/politica$/,
  /^PUT \/api\/garanzie\/stripe$/,
  /^(GET|POST) \/api\/ospiti\/\{\}\/(esporta|oblio)$/,
  /^(GET|POST) \/api\/report/,
  /^(GET|POST|PATCH|DELETE) \/api\/webhooks/,
  /^PUT \/api\/integrazioni\/google$/,
  /^GET \/api\/integrazioni\/google\/feed$/,
  /^(POST|PATCH|DELETE) \/api\/combinazioni/,
  /^DELETE \/api\/tavoli\/\{\}\/lock$/,
  // Where the decisions are silent, this project's choices (docs/security.md, "Who may call what"): settings that
  // change every booking of the restaurant, the Google link, and giving money back.
  /^PUT \/api\/capacity\/config$/,
  /^(POST|PATCH|DELETE) \/api\/capacity\/categories/,
  /^GET \/api\/integrazioni\/google$/,
  /^POST \/api\/garanzie\/bloccate\/\{\}\/rimborsa$/,
];

const isAdminRoute = (route: RouteKey) => ADMIN_ROUTES.some((pattern) => pattern.test(route));

interface Route {
  method: Method;
  path: string;
  key: RouteKey;
}

async function documentedRoutes(stack: Stack): Promise<Route[]> {
  const document = (await (await fetch(`${stack.baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .map((m) => m.toUpperCase())
        .filter((m): m is Method => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m))
        .map((method) => ({ method, path, key: `${method} ${path.replace(/\{[^}]+\}/g, '{}')}` })),
    );
}

describe.each(MODES)('every route with every role (%s mode)', (mode) => {
  let stack: Stack;
  let routes: Route[];
  const tokens: Record<'admin' | 'staff' | 'channel' | 'guest' | 'strangerGuest', string> = {
    admin: '',
    staff: '',
    channel: '',
    guest: '',
    strangerGuest: '',
  };
  /** The guest's own booking, and one the guest has no right to. */
  let own: string;
  let other: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    routes = await documentedRoutes(stack);
    const tenant = newTenantId();
    tokens.admin = await mintToken({ tenantId: tenant, admin: true });
    tokens.staff = await mintToken({ tenantId: tenant });
    const channel = await stack.api('POST', '/api/canali', { token: tokens.admin, body: { name: 'Sito' } });
    tokens.channel = channel.body.key;
    await stack.api('POST', '/api/tavoli', { token: tokens.admin, body: { name: 'R1', seats: 4 } });
    const booked = await stack.api('POST', '/api/prenotazioni', {
      token: tokens.channel,
      body: {
        covers: 2,
        bookingDate: '2027-06-01T20:00',
        customerName: 'Ospite',
        customerPhone: '+39 333 7654321',
        autoAssign: true,
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    own = booked.body.id;
    tokens.guest = booked.body.gestione.token;
    const staffBooking = await stack.api('POST', '/api/prenotazioni', {
      token: tokens.staff,
      body: { covers: 2, bookingDate: '2027-06-02T20:00', customerName: 'Altro' },
    });
    other = staffBooking.body.id;

    // Another tenant's guest, holding a real guest token of its own booking.
    const stranger = newTenantId();
    const strangerAdmin = await mintToken({ tenantId: stranger, admin: true });
    await stack.api('POST', '/api/tavoli', { token: strangerAdmin, body: { name: 'S1', seats: 4 } });
    const strangerBooking = await stack.api('POST', '/api/prenotazioni', {
      token: strangerAdmin,
      body: { covers: 2, bookingDate: '2027-06-01T20:00', customerName: 'Straniero', autoAssign: true },
    });
    const manage = await stack.api('POST', `/api/prenotazioni/${strangerBooking.body.id}/gestione`, {
      token: strangerAdmin,
    });
    expect(manage.status, JSON.stringify(manage.body)).toBe(200);
    tokens.strangerGuest = manage.body.token;
  });
  afterAll(async () => stack?.close());

  /** Calls a route with `{id}` parameters filled with `id` (others: a fresh unknown id) and an empty body. */
  const call = (route: Route, token: string, id: string) => {
    let first = true;
    const path = route.path.replace(/\{[^}]+\}/g, () => {
      const value = first ? id : crypto.randomUUID();
      first = false;
      return encodeURIComponent(value);
    });
    return stack.api(route.method, path, {
      token,
      ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { body: {} } : {}),
    });
  };

  /** Every route's answer for one role: `[route key, status, error code]`. */
  async function answers(token: string, id: (route: Route) => string) {
    const out: Array<{ route: RouteKey; status: number; code: string | undefined }> = [];
    for (const route of routes) {
      const res = await call(route, token, id(route));
      out.push({ route: route.key, status: res.status, code: res.body?.error?.code });
    }
    return out;
  }

  it('tries every documented route (the document lists the routes the decisions name)', () => {
    const keys = new Set(routes.map((r) => r.key));
    for (const route of [...CHANNEL_ROUTES, ...GUEST_ROUTES]) expect(keys).toContain(route);
    expect(routes.length).toBeGreaterThan(60);
  });

  it('an administrator is refused nothing; staff are refused exactly the administrators’ routes', async () => {
    const someId = () => other;
    const adminStatus = new Map<RouteKey, number>();
    for (const { route, status } of await answers(tokens.admin, someId)) {
      expect(status, route).not.toBe(403);
      expect(status, route).toBeLessThan(500);
      adminStatus.set(route, status);
    }
    for (const { route, status, code } of await answers(tokens.staff, someId)) {
      expect(status, route).toBeLessThan(500);
      expect(status, route).not.toBe(401);
      if (!isAdminRoute(route))
        expect([route, status], 'not an administrators’ route').not.toEqual([route, 403]);
      // The same request's body refused for its shape (400) before any right is weighed discloses nothing: the
      // document that states the shape is public. Any other answer is 403 FORBIDDEN.
      else if (!(status === 400 && adminStatus.get(route) === 400))
        expect([route, status, code]).toEqual([route, 403, 'FORBIDDEN']);
    }
  });

  it('a channel key reaches its four routes and is refused (403 FORBIDDEN) every other', async () => {
    for (const { route, status, code } of await answers(tokens.channel, () => other)) {
      expect(status, route).toBeLessThan(500);
      if (CHANNEL_ROUTES.has(route)) expect([401, 403], route).not.toContain(status);
      else expect([route, status, code]).toEqual([route, 403, 'FORBIDDEN']);
    }
  });

  it('a guest reaches its own booking, finds any other missing (404), and is refused every other route', async () => {
    for (const { route, status, code } of await answers(tokens.guest, () => own)) {
      expect(status, route).toBeLessThan(500);
      if (GUEST_ROUTES.has(route)) expect([401, 403, 404], route).not.toContain(status);
      else expect([route, status, code]).toEqual([route, 403, 'FORBIDDEN']);
    }
    for (const { route, status } of await answers(tokens.guest, () => other)) {
      if (GUEST_ROUTES.has(route)) expect([route, status]).toEqual([route, 404]);
    }
  });

  it("another tenant's guest finds this tenant's booking missing and is refused every other route", async () => {
    for (const { route, status, code } of await answers(tokens.strangerGuest, () => own)) {
      if (GUEST_ROUTES.has(route)) expect([route, status]).toEqual([route, 404]);
      else expect([route, status, code]).toEqual([route, 403, 'FORBIDDEN']);
    }
  });
});
