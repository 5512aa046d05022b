// GraphQL subscriptions (graphql-ws on the gateway's /graphql) through the public port, in both modes, plus
// what only distributed mode has: several gateway instances and NATS going away under open sockets.
// The clients are plain graphql-ws and ws clients, shared with the gateway's unit tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  mintToken,
  newTenantId,
  serverUrls,
  startNatsServer,
  uniqueName,
  type TestServer,
} from '@coperto/testkit';
import {
  collect,
  graphqlWsClient,
  rawSubscriber,
  type Received,
} from '../gateway/test/support/ws-clients.js';
import { createApi } from './support/http.js';
import { MODES, startStack } from './support/modes.js';
import {
  TABLE_SUBGRAPHS,
  startDistributed,
  startProcess,
  type ProcessHandle,
  type Stack,
} from './support/stack.js';

const DATA = `id nome name capacita seats stato status previousStatus salaId roomId attivo posizione orderId pax
  totalAmount lock { deviceId } createdAt updatedAt`;
const TABLE_FIELDS = `id type time subject data { ${DATA} }`;
const TABLES = `subscription ($salaId: ID) { tableStatusChanged(salaId: $salaId) { ${TABLE_FIELDS} } }`;
const BOOKING_FIELDS = `id type time subject data {
  id codice covers numeroPersone bookingDate dataOra startsAt customerName cliente customerPhone tableIds notes
  state durationMinutes motivo cancelledAt externalId createdAt updatedAt
}`;

type TableEvent = {
  tableStatusChanged: { subject: string; data: Record<string, unknown> } & Record<string, unknown>;
};

const wsUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/graphql`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Subscribing has no acknowledgement in graphql-ws: repeats `trigger` until an event it caused arrives
 * (at once in embedded mode; after the NATS SUB round trip in distributed mode).
 */
async function untilLive(
  trigger: () => Promise<unknown>,
  arrived: () => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await trigger();
    const retryAt = Date.now() + 1000;
    while (Date.now() < retryAt) {
      if (arrived()) return;
      await sleep(20);
    }
    if (Date.now() >= deadline) throw new Error('subscription did not become live');
  }
}

/** Waits (bounded) until `condition` holds; fails with `what` otherwise. */
async function eventually(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}

const subjectsOf = (received: Received<TableEvent>) =>
  received.items.map((e) => e.tableStatusChanged.subject);

/** REST helpers of one stack (base URL) for one tenant. */
function restaurant(api: Stack['api'], token: string) {
  let flips = 0;
  return {
    async sala(codice: string): Promise<string> {
      const res = await api('POST', '/api/sale', { token, body: { codice } });
      expect(res.status).toBe(201);
      return res.body.id;
    },
    async tavolo(name: string, roomId?: string): Promise<string> {
      const res = await api('POST', '/api/tavoli', {
        token,
        body: { name, seats: 4, ...(roomId ? { roomId } : {}) },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    },
    async status(id: string, body: Record<string, unknown>) {
      const res = await api('PUT', `/api/tavoli/${id}/status`, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
    /** A status change whose only purpose is an event (alternating, so each one is a change). */
    flip(id: string) {
      return this.status(id, { status: flips++ % 2 === 0 ? 'occupied' : 'free' });
    },
  };
}

describe.each(MODES)('subscriptions (%s mode)', (mode) => {
  let stack: Stack;
  let url: string;
  const closers: Array<() => unknown> = [];

  beforeAll(async () => {
    stack = await startStack(mode);
    url = wsUrl(stack.baseUrl);
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await stack?.close();
  });

  const client = (authorization?: string) => {
    const c = graphqlWsClient(url, authorization);
    closers.push(() => c.dispose());
    return c;
  };
  const tenantWithToken = async () => {
    const tenant = newTenantId();
    const token = await mintToken({ tenantId: tenant });
    return { tenant, token, rest: restaurant(stack.api, token) };
  };

  it('delivers tableStatusChanged after PUT /api/tavoli/:id/status, with the whole table and previousStatus', async () => {
    const { token, rest } = await tenantWithToken();
    const sala = await rest.sala('main');
    const [probe, table] = [await rest.tavolo('probe'), await rest.tavolo('T7', sala)];
    const received = collect<TableEvent>(client(bearer(token)), TABLES);
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(received).includes(probe),
    );

    const written = await rest.status(table, {
      status: 'occupied',
      orderId: 'ord-7',
      pax: 3,
      totalAmount: 0,
    });
    await rest.status(table, { status: 'payment_pending', totalAmount: 86.5 });
    await rest.status(table, { status: 'free' });
    await eventually(
      () => subjectsOf(received).filter((s) => s === table).length === 3,
      'three events of T7',
    );

    const events = received.items.map((e) => e.tableStatusChanged).filter((e) => e.subject === table);
    expect(events.map((e) => [e.data.previousStatus, e.data.status])).toEqual([
      ['free', 'occupied'],
      ['occupied', 'payment_pending'],
      ['payment_pending', 'free'],
    ]);
    expect(events[0]).toEqual({
      id: expect.any(String),
      type: 'tables.status',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      subject: table,
      data: {
        id: table,
        nome: 'T7',
        name: 'T7',
        capacita: 4,
        seats: 4,
        stato: 'occupied',
        status: 'occupied',
        previousStatus: 'free',
        salaId: sala,
        roomId: sala,
        attivo: true,
        posizione: null,
        orderId: 'ord-7',
        pax: 3,
        totalAmount: 0,
        lock: null,
        createdAt: written.createdAt,
        updatedAt: written.updatedAt,
      },
    });
    expect(events[1]!.data).toMatchObject({ orderId: 'ord-7', pax: 3, totalAmount: 86.5 });
    expect(events[2]!.data).toMatchObject({ orderId: null, pax: null, totalAmount: null });
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('with salaId, a subscriber sees only the tables of that room', async () => {
    const { token, rest } = await tenantWithToken();
    const [terrace, hall] = [await rest.sala('terrace'), await rest.sala('hall')];
    const [probe, inTerrace, inHall] = [
      await rest.tavolo('probe', terrace),
      await rest.tavolo('T-terrace', terrace),
      await rest.tavolo('T-hall', hall),
    ];
    const terraceOnly = collect<TableEvent>(client(bearer(token)), TABLES, { salaId: terrace });
    const everything = collect<TableEvent>(client(bearer(token)), TABLES);
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(terraceOnly).includes(probe),
    );
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(everything).includes(probe),
    );

    await rest.status(inHall, { status: 'dirty' });
    await eventually(() => subjectsOf(everything).includes(inHall), 'the hall event, unfiltered');
    await rest.status(inTerrace, { status: 'reserved' });
    await eventually(() => subjectsOf(terraceOnly).includes(inTerrace), 'the terrace event, filtered');

    // The hall event was delivered before the terrace one was even written: the filter dropped it.
    expect(subjectsOf(terraceOnly)).not.toContain(inHall);
    expect(terraceOnly.items.every((e) => e.tableStatusChanged.data.salaId === terrace)).toBe(true);
  });

  it("two tenants subscribed at once each see only their own tenant's events", async () => {
    const [alpha, beta] = [await tenantWithToken(), await tenantWithToken()];
    const [alphaTable, betaTable] = [await alpha.rest.tavolo('A1'), await beta.rest.tavolo('B1')];
    const alphaEvents = collect<TableEvent>(client(bearer(alpha.token)), TABLES);
    const betaEvents = collect<TableEvent>(client(bearer(beta.token)), TABLES);
    await untilLive(
      () => alpha.rest.flip(alphaTable),
      () => subjectsOf(alphaEvents).includes(alphaTable),
    );
    await untilLive(
      () => beta.rest.flip(betaTable),
      () => subjectsOf(betaEvents).includes(betaTable),
    );

    const count = (r: Received<TableEvent>, id: string) => subjectsOf(r).filter((s) => s === id).length;
    const alphaBefore = count(alphaEvents, alphaTable);
    await alpha.rest.status(alphaTable, { status: 'dirty' });
    await eventually(() => count(alphaEvents, alphaTable) > alphaBefore, 'alpha event');
    const betaBefore = count(betaEvents, betaTable);
    await beta.rest.status(betaTable, { status: 'dirty' });
    await eventually(() => count(betaEvents, betaTable) > betaBefore, 'beta event');
    await alpha.rest.status(alphaTable, { status: 'open' });
    await eventually(() => count(alphaEvents, alphaTable) > alphaBefore + 1, 'second alpha event');

    // Each tenant's later event arrived after the other's was published: nothing crossed over.
    expect(new Set(subjectsOf(alphaEvents))).toEqual(new Set([alphaTable]));
    expect(new Set(subjectsOf(betaEvents))).toEqual(new Set([betaTable]));
  });

  it.each([
    ['no token', async () => undefined],
    ['a bad token', async () => bearer('not.a.jwt')],
    [
      'a token signed with another secret',
      async () => bearer(await mintToken({ tenantId: 't_x', secret: 'x'.repeat(40) })),
    ],
    ['an expired token', async () => bearer(await mintToken({ tenantId: newTenantId(), expiresIn: -3600 }))],
  ])('refuses a connection with %s: close code 4403', async (_what, authorization) => {
    const c = client(await authorization());
    const received = collect(c, TABLES);
    expect(await c.closed).toEqual({ code: 4403, reason: 'Forbidden' });
    expect(await received.failed).toMatchObject({ code: 4403 });
    expect(received.items).toEqual([]);
  });

  it('disconnects a client that stops reading (4429) while the others keep receiving', async () => {
    const { token, rest } = await tenantWithToken();
    const tables = [
      await rest.tavolo('S1'),
      await rest.tavolo('S2'),
      await rest.tavolo('S3'),
      await rest.tavolo('S4'),
    ];
    const healthy = collect<TableEvent>(client(bearer(token)), TABLES);
    // One socket with 100 subscriptions (the per-socket maximum): each event is 100 messages for it.
    const slow = await rawSubscriber(url, bearer(token));
    closers.push(() => slow.terminate());
    // The same data three times over (aliases) makes each message cost more bytes.
    const heavy = `subscription { tableStatusChanged { a: data { ${DATA} } b: data { ${DATA} } c: data { ${DATA} } } }`;
    for (let i = 0; i < 100; i++) slow.subscribe(`s${i}`, heavy);
    await untilLive(
      () => rest.flip(tables[0]!),
      () => slow.liveSubscriptions === 100 && healthy.items.length > 0,
    );

    slow.pause();
    const before = healthy.items.length;
    // About 2 KB per message, 100 messages per event: some 30 events fill the loopback buffers (a few MB),
    // 10 more the socket's 1000 pending events. 120 leave a wide margin.
    const rounds = 30;
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        tables.map((id, i) => rest.status(id, { status: (round + i) % 2 === 0 ? 'occupied' : 'free' })),
      );
    }
    // The close frame waits behind what the kernel holds: read it all (ws gives up after 30 s).
    slow.resume();
    expect(await slow.closed).toEqual({ code: 4429, reason: 'Too many pending events' });
    expect(slow.nextCount).toBeLessThan(100 * (1 + rounds * tables.length));
    await eventually(
      () => healthy.items.length >= before + rounds * tables.length,
      'the healthy client got everything',
    );

    // The gateway still serves the healthy socket after cutting the slow one.
    const count = healthy.items.length;
    await rest.flip(tables[0]!);
    await eventually(() => healthy.items.length > count, 'an event after the disconnect');
  });

  describe('booking events', () => {
    const booking = (customerName: string) => ({
      covers: 2,
      bookingDate: '2031-05-17T20:30:00',
      customerName,
      customerPhone: '+39 055 000000',
      notes: 'finestra',
    });

    it('POST /api/prenotazioni → bookingCreated; /conferma → bookingUpdated; /annulla → bookingCancelled', async () => {
      const { token } = await tenantWithToken();
      const api = (method: string, path: string, body?: unknown) =>
        stack.api(method, path, { token, ...(body === undefined ? {} : { body }) });
      const c = client(bearer(token));
      type BookingData = Record<string, unknown> & { id: string; state: string };
      type Booked = { id: string; type: string; subject: string; time: string; data: BookingData };
      const created = collect<{ bookingCreated: Booked }>(
        c,
        `subscription { bookingCreated { ${BOOKING_FIELDS} } }`,
      );
      const updated = collect<{ bookingUpdated: Booked }>(
        c,
        `subscription { bookingUpdated { ${BOOKING_FIELDS} } }`,
      );
      const cancelled = collect<{ bookingCancelled: Booked }>(
        c,
        `subscription { bookingCancelled { ${BOOKING_FIELDS} } }`,
      );
      const create = async (name: string) => {
        const res = await api('POST', '/api/prenotazioni', booking(name));
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body as BookingData & { codice: string };
      };
      await untilLive(
        () => create('probe'),
        () => created.items.length > 0,
      );
      await untilLive(
        async () => api('POST', `/api/prenotazioni/${(await create('probe')).id}/conferma`),
        () => updated.items.length > 0,
      );
      await untilLive(
        async () =>
          api('POST', `/api/prenotazioni/${(await create('probe')).id}/annulla`, { motivo: 'probe' }),
        () => cancelled.items.length > 0,
      );

      const record = await create('Bianchi');
      await eventually(
        () => created.items.some((e) => e.bookingCreated.subject === record.id),
        'bookingCreated',
      );
      const createdEvent = created.items.find((e) => e.bookingCreated.subject === record.id)!.bookingCreated;
      expect(createdEvent).toMatchObject({ type: 'bookings.created', subject: record.id });
      expect(createdEvent.data).toMatchObject({
        id: record.id,
        codice: record.codice,
        covers: 2,
        numeroPersone: 2,
        bookingDate: '2031-05-17T20:30:00',
        dataOra: '2031-05-17T20:30:00',
        customerName: 'Bianchi',
        cliente: 'Bianchi',
        customerPhone: '+39 055 000000',
        notes: 'finestra',
        tableIds: [],
        state: record.state,
      });
      expect(createdEvent.data.codice).toMatch(/^[A-Z2-9]{6}$/);

      expect((await api('POST', `/api/prenotazioni/${record.id}/conferma`)).status).toBe(200);
      await eventually(
        () => updated.items.some((e) => e.bookingUpdated.subject === record.id),
        'bookingUpdated',
      );
      const updatedEvent = updated.items.find((e) => e.bookingUpdated.subject === record.id)!.bookingUpdated;
      expect(updatedEvent).toMatchObject({
        type: 'bookings.updated',
        data: { id: record.id, state: 'confermata' },
      });

      expect(
        (await api('POST', `/api/prenotazioni/${record.id}/annulla`, { motivo: 'maltempo' })).status,
      ).toBe(200);
      await eventually(
        () => cancelled.items.some((e) => e.bookingCancelled.subject === record.id),
        'cancelled',
      );
      const cancelledEvent = cancelled.items.find(
        (e) => e.bookingCancelled.subject === record.id,
      )!.bookingCancelled;
      expect(cancelledEvent).toMatchObject({
        type: 'bookings.cancelled',
        data: { id: record.id, state: 'annullata', motivo: 'maltempo', cancelledAt: expect.any(String) },
      });

      // Each field carries only its own event type.
      expect(updated.items.every((e) => e.bookingUpdated.type === 'bookings.updated')).toBe(true);
      expect(cancelled.items.every((e) => e.bookingCancelled.type === 'bookings.cancelled')).toBe(true);
    });
  });
});

describe('subscriptions in distributed mode: several gateways, NATS going away', () => {
  let nats: TestServer;
  let stack: Awaited<ReturnType<typeof startDistributed>>;
  let second: ProcessHandle;
  const closers: Array<() => unknown> = [];

  beforeAll(async () => {
    // A NATS of this file's own, so killing it disturbs no other test.
    nats = await startNatsServer();
    const { mongoUrl, redisUrl } = serverUrls();
    const database = uniqueName('e2e_subscriptions');
    // Tables and their status only: the subgraphs those requests reach.
    stack = await startDistributed({
      mongoUrl,
      natsUrl: nats.url,
      redisUrl,
      database,
      only: TABLE_SUBGRAPHS,
    });
    second = await startProcess(
      'gateway#2',
      'gateway/src/index.ts',
      stack.processes.find((p) => p.name === 'gateway')!.settings,
    );
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await second?.stop();
    await stack?.close();
    await nats?.stop();
  });

  const client = (baseUrl: string, token: string) => {
    const c = graphqlWsClient(wsUrl(baseUrl), bearer(token));
    closers.push(() => c.dispose());
    return c;
  };

  it('every gateway instance delivers every event to its own subscribers', async () => {
    const token = await mintToken({ tenantId: newTenantId() });
    const secondUrl = `http://127.0.0.1:${second.port}`;
    const rest = restaurant(stack.api, token);
    const [probe, viaFirst, viaSecond] = [
      await rest.tavolo('probe'),
      await rest.tavolo('G1'),
      await rest.tavolo('G2'),
    ];
    const onFirst = collect<TableEvent>(client(stack.baseUrl, token), TABLES);
    const onSecond = collect<TableEvent>(client(secondUrl, token), TABLES);
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(onFirst).includes(probe),
    );
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(onSecond).includes(probe),
    );

    // One change through each instance's REST port.
    await rest.status(viaFirst, { status: 'occupied' });
    await restaurant(createApi(secondUrl), token).status(viaSecond, { status: 'reserved' });

    for (const [name, received] of [
      ['first', onFirst],
      ['second', onSecond],
    ] as const) {
      await eventually(
        () => [viaFirst, viaSecond].every((id) => subjectsOf(received).includes(id)),
        `both events on the ${name} gateway`,
      );
    }
  });

  it('keeps sockets open while NATS is down; the events written meanwhile arrive once it is back', async () => {
    const token = await mintToken({ tenantId: newTenantId() });
    const rest = restaurant(stack.api, token);
    const [probe, table] = [await rest.tavolo('probe'), await rest.tavolo('N1')];
    const c = client(stack.baseUrl, token);
    let closed = false;
    void c.closed.then(() => (closed = true));
    const received = collect<TableEvent>(c, TABLES);
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(received).includes(probe),
    );

    await nats.kill();
    // Acknowledged writes: the outbox keeps their events until NATS takes them.
    const during = ['occupied', 'payment_pending', 'dirty'];
    for (const status of during) await rest.status(table, { status });
    await nats.restart();

    await eventually(
      () =>
        new Set(
          received.items
            .filter((e) => e.tableStatusChanged.subject === table)
            .map((e) => e.tableStatusChanged.id),
        ).size >= during.length,
      'the events written while NATS was down',
      60_000,
    );
    // At least once: a relay retry may deliver an event twice; clients dedupe by the event id.
    const byId = new Map(
      received.items
        .map((e) => e.tableStatusChanged)
        .filter((e) => e.subject === table)
        .map((e) => [e.id, e]),
    );
    expect([...byId.values()].map((e) => e.data.status)).toEqual(during);

    // The same subscription keeps working for new writes.
    await rest.status(table, { status: 'free' });
    await eventually(
      () =>
        received.items.some(
          (e) => e.tableStatusChanged.subject === table && e.tableStatusChanged.data.status === 'free',
        ),
      'an event written after NATS came back',
    );
    expect(closed).toBe(false);
  });

  it('a gateway stopping (SIGTERM) closes its sockets with 1001 Going away and exits 0', async () => {
    const token = await mintToken({ tenantId: newTenantId() });
    const rest = restaurant(stack.api, token);
    const probe = await rest.tavolo('probe');
    const c = client(`http://127.0.0.1:${second.port}`, token);
    const received = collect<TableEvent>(c, TABLES);
    await untilLive(
      () => rest.flip(probe),
      () => subjectsOf(received).includes(probe),
    );

    expect(await second.stop('SIGTERM')).toBe(0);
    expect(await c.closed).toEqual({ code: 1001, reason: 'Going away' });
  });
});
