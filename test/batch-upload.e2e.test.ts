import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const CODICE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;

interface ItemResult {
  index: number;
  status: 'created' | 'duplicate' | 'failed';
  id: string | null;
  codice: string | null;
  externalId: string | null;
  error: { code: string; message: string; details: { fields?: Array<{ field: string }> } | null } | null;
}

/** A batch item as the tests build it (any JSON, plus the externalId they read back). */
type Item = Record<string, unknown> & { externalId?: string };

describe.each(MODES)('legacy batch upload (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => stack?.close());

  const upload = (body: unknown, as = token) =>
    stack.api('POST', '/api/prenotazioni/batch', { token: as, body });
  /** A valid item at a distinct minute of 2027-02-10, so that items never collide on a table. */
  let minute = 0;
  const item = (extra: Record<string, unknown> = {}): Item => {
    minute++;
    const time = `${String(12 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    return { covers: 2, bookingDate: `2027-02-10T${time}`, customerName: `Cliente ${minute}`, ...extra };
  };
  const externalId = () => `pos-${Math.random().toString(36).slice(2)}`;
  const listAll = async (as = token) =>
    (await stack.api('GET', '/api/prenotazioni?dal=2027-01-01&al=2027-12-31', { token: as })).body as Array<{
      id: string;
      externalId: string | null;
    }>;

  it('creates every valid item as a real booking and keeps the batch record', async () => {
    const items: Item[] = [
      item({ externalId: externalId(), notes: 'tavolo vicino alla finestra' }),
      { numeroPersone: 5, dataOra: '2027-02-10T21:15', cliente: 'Verdi', customerPhone: '+39 055 000' },
      item({ state: 'confermata', durationMinutes: 90 }),
    ];
    const res = await upload({ items });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, created: 3, failed: 0, duplicates: 0 });
    expect(res.body.batchId).toEqual(expect.any(String));
    const results = res.body.results as ItemResult[];
    expect(results.map((r) => [r.index, r.status, r.error])).toEqual([
      [0, 'created', null],
      [1, 'created', null],
      [2, 'created', null],
    ]);
    expect(results[0]!.externalId).toBe(items[0]!.externalId);
    for (const r of results) expect(r.codice).toMatch(CODICE);

    const italian = await stack.api('GET', `/api/prenotazioni/${results[1]!.id}`, { token });
    expect(italian.body).toMatchObject({
      covers: 5,
      customerName: 'Verdi',
      codice: results[1]!.codice,
      state: 'pending',
    });
    const confirmed = await stack.api('GET', `/api/prenotazioni/${results[2]!.id}`, { token });
    expect(confirmed.body).toMatchObject({ state: 'confermata', durationMinutes: 90 });

    const stored = await stack.api('GET', `/api/prenotazioni/batch/${res.body.batchId}`, { token });
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual(res.body);
  });

  it('fails exactly the invalid items, each with its code and the field, and creates the rest', async () => {
    const table = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'B1', seats: 4 } })).body;
    const { covers: _covers, ...withoutCovers } = item();
    const cases: Array<[unknown, string | null]> = [
      [item(), null],
      [withoutCovers, 'covers'],
      [item({ covers: 0 }), 'covers'],
      [item({ bookingDate: 'domani sera' }), 'bookingDate'],
      [item({ bookingDate: '2027-02-30T20:00' }), 'bookingDate'],
      [item({ state: 'flying' }), 'state'],
      [item({ covers: 'two' }), 'covers'],
      [item({ customerName: 42 }), 'customerName'],
      [item({ notes: ['x'] }), 'notes'],
      [item({ tableIds: ['no-such-table'] }), 'tableIds'],
      [item({ customerName: '' }), 'customerName'],
      ['just a string', 'item'],
      [null, 'item'],
      [item({ tableIds: [table.id] }), null],
      [{ numeroPersone: 3, dataOra: '2027-02-11T20:00:00', cliente: 'Neri', unknownField: true }, null],
    ];
    const res = await upload({ items: cases.map(([value]) => value) });
    expect(res.status).toBe(200);
    const failedFields = cases.filter(([, field]) => field !== null).length;
    expect(res.body).toMatchObject({
      total: cases.length,
      created: cases.length - failedFields,
      failed: failedFields,
      duplicates: 0,
    });
    const results = res.body.results as ItemResult[];
    expect(results.map((r) => r.index)).toEqual(cases.map((_, i) => i));
    cases.forEach(([, field], i) => {
      const result = results[i]!;
      if (field === null) {
        expect(result, `item ${i}`).toMatchObject({ status: 'created', error: null });
        expect(result.codice).toMatch(CODICE);
        return;
      }
      expect(result, `item ${i}`).toMatchObject({ status: 'failed', id: null, codice: null });
      expect(result.error!.code, `item ${i}`).toBe('VALIDATION_FAILED');
      expect(result.error!.message).toEqual(expect.any(String));
      expect(
        result.error!.details!.fields!.map((f) => f.field),
        `item ${i}`,
      ).toContain(field);
    });
    const withTable = await stack.api('GET', `/api/prenotazioni/${results[13]!.id}`, { token });
    expect(withTable.body.tableIds).toEqual([table.id]);
  });

  it('accepts 500 items and refuses 501 with 413 before creating any', async () => {
    const bulkToken = await mintToken({ tenantId: newTenantId() });
    const items = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        covers: 1 + (i % 8),
        bookingDate: `2027-03-${String(1 + (i % 28)).padStart(2, '0')}T20:00`,
        customerName: `Bulk ${i}`,
      }));
    const tooMany = await upload({ items: items(501) }, bulkToken);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await listAll(bulkToken)).toEqual([]);

    const full = await upload({ items: items(500) }, bulkToken);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ total: 500, created: 500, failed: 0 });
    expect((full.body.results as ItemResult[]).map((r) => r.index)).toEqual(items(500).map((_, i) => i));
    expect(await listAll(bulkToken)).toHaveLength(500);
  });

  it.each([
    ['no items', {}],
    ['items null', { items: null }],
    ['items an object', { items: { 0: { covers: 2 } } }],
    ['items a string', { items: 'all of them' }],
    ['a JSON array body', [{ covers: 2 }]],
  ])('refuses %s with 400 naming items', async (_, body) => {
    const res = await upload(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error)).toMatch(/items|body/);
  });

  it('answers a re-upload with every item as a duplicate of the same booking', async () => {
    const items = [
      item({ externalId: externalId() }),
      item({ externalId: externalId() }),
      item({ externalId: externalId() }),
    ];
    const first = await upload({ items });
    expect(first.body).toMatchObject({ created: 3, duplicates: 0 });
    const before = (await listAll()).length;

    const again = await upload({ items });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ total: 3, created: 0, failed: 0, duplicates: 3 });
    expect(again.body.batchId).not.toBe(first.body.batchId);
    const pick = (r: ItemResult) => [r.index, r.id, r.codice, r.externalId];
    expect((again.body.results as ItemResult[]).map((r) => r.status)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect((again.body.results as ItemResult[]).map(pick)).toEqual(
      (first.body.results as ItemResult[]).map(pick),
    );
    expect((await listAll()).length).toBe(before);
  });

  it('creates each externalId exactly once when the same batch is sent twice at the same time', async () => {
    const items = Array.from({ length: 20 }, () => item({ externalId: externalId() }));
    const [a, b] = await Promise.all([upload({ items }), upload({ items })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const resultsA = a.body.results as ItemResult[];
    const resultsB = b.body.results as ItemResult[];
    items.forEach((_, i) => {
      expect([resultsA[i]!.status, resultsB[i]!.status].sort(), `item ${i}`).toEqual([
        'created',
        'duplicate',
      ]);
      expect(resultsA[i]!.id).toBe(resultsB[i]!.id);
      expect(resultsA[i]!.codice).toBe(resultsB[i]!.codice);
    });
    expect(a.body.created + b.body.created).toBe(20);
    expect(a.body.duplicates + b.body.duplicates).toBe(20);
    const ids = new Set(items.map((i) => i.externalId));
    expect((await listAll()).filter((p) => p.externalId !== null && ids.has(p.externalId))).toHaveLength(20);
  });

  it('leaves no phantom hold when two items share an externalId but name different tables', async () => {
    const own = await mintToken({ tenantId: newTenantId() });
    const newTable = async (name: string) =>
      (await stack.api('POST', '/api/tavoli', { token: own, body: { name, seats: 4 } })).body.id as string;
    const pairs = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => ({
        externalId: externalId(),
        tables: [await newTable(`P${i}a`), await newTable(`P${i}b`)],
      })),
    );
    // adjacent items are imported concurrently: both look for the externalId before either is stored
    const items = pairs.flatMap((pair) =>
      pair.tables.map((t) => ({
        covers: 2,
        bookingDate: '2027-08-01T20:00',
        customerName: 'Doppio',
        externalId: pair.externalId,
        tableIds: [t],
      })),
    );
    const res = await upload({ items }, own);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 10, created: 5, duplicates: 5, failed: 0 });
    for (const pair of pairs) {
      const results = (res.body.results as ItemResult[]).filter((r) => r.externalId === pair.externalId);
      const booked = await stack.api('GET', `/api/prenotazioni/${results[0]!.id}`, { token: own });
      const unused = pair.tables.filter((t) => !booked.body.tableIds.includes(t));
      expect(unused).toHaveLength(1);
      // the table the booking does not use is free at that time: no hold was left on it
      const later = await stack.api('POST', '/api/prenotazioni', {
        token: own,
        body: { covers: 2, bookingDate: '2027-08-01T20:00', customerName: 'Dopo', tableIds: unused },
      });
      expect(later.status, `table ${unused[0]}`).toBe(201);
    }
  });

  it('publishes bookings.created for each created item and for nothing else', async () => {
    const eventsTenant = newTenantId();
    const eventsToken = await mintToken({ tenantId: eventsTenant });
    const events = stack.events(`tenant.${eventsTenant}.restaurant.bookings.created`);
    try {
      const items = [item(), item({ covers: 0 }), item({ externalId: externalId() }), item()];
      const res = await upload({ items }, eventsToken);
      const created = (res.body.results as ItemResult[]).filter((r) => r.status === 'created');
      expect(created).toHaveLength(3);
      const received = await events.waitFor(3);
      expect(received.map((e) => e.subject).sort()).toEqual(created.map((r) => r.id).sort());
      for (const event of received) {
        const result = created.find((r) => r.id === event.subject)!;
        expect(event).toMatchObject({ type: 'bookings.created', tenantid: eventsTenant });
        expect(event.data).toMatchObject({ id: result.id, codice: result.codice });
      }
      // The re-upload of the externalId item is a duplicate: a later create proves the bus was delivering.
      await upload({ items: [items[2], item()] }, eventsToken);
      const after = await events.waitFor(4);
      expect(after).toHaveLength(4);
      expect(after.filter((e) => e.subject === created[1]!.id)).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  it('resolves the bookings of a batch through the supergraph', async () => {
    const res = await upload({ items: [item({ customerName: 'Federato' }), item({ covers: -1 })] });
    const gql = await stack.graphql(
      token,
      `query ($id: ID!) { batchUpload(id: $id) { id batchId total results { status prenotazione { codice customerName } } } }`,
      { id: res.body.batchId },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.batchUpload).toEqual({
      id: res.body.batchId,
      batchId: res.body.batchId,
      total: 2,
      results: [
        { status: 'created', prenotazione: { codice: res.body.results[0].codice, customerName: 'Federato' } },
        { status: 'failed', prenotazione: null },
      ],
    });
  });

  it("keeps tenants apart: another tenant's batch is not found, and one externalId is two bookings", async () => {
    const otherToken = await mintToken({ tenantId: newTenantId() });
    const shared = externalId();
    const mine = await upload({ items: [item({ externalId: shared, customerName: 'Mio' })] });
    const theirs = await upload({ items: [item({ externalId: shared, customerName: 'Suo' })] }, otherToken);
    expect(mine.body.results[0].status).toBe('created');
    expect(theirs.body.results[0].status).toBe('created');

    const foreign = await stack.api('GET', `/api/prenotazioni/batch/${mine.body.batchId}`, {
      token: otherToken,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await stack.api('GET', '/api/prenotazioni/batch/no-such-batch', { token })).status).toBe(404);

    const myBooking = await stack.api('GET', `/api/prenotazioni/${mine.body.results[0].id}`, { token });
    const theirBooking = await stack.api('GET', `/api/prenotazioni/${theirs.body.results[0].id}`, {
      token: otherToken,
    });
    expect(myBooking.body.customerName).toBe('Mio');
    expect(theirBooking.body.customerName).toBe('Suo');
    expect((await listAll(otherToken)).map((p) => p.externalId)).toEqual([shared]);
  });

  it('answers 401 without a valid token', async () => {
    const expired = await mintToken({ tenantId: tenant, expiresIn: -60 });
    for (const as of [undefined, expired, 'not-a-jwt']) {
      const post = await stack.api('POST', '/api/prenotazioni/batch', {
        token: as,
        body: { items: [item()] },
      });
      expect(post.status).toBe(401);
      expect(post.body.error.code).toBe('UNAUTHENTICATED');
      expect(post.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await stack.api('GET', '/api/prenotazioni/batch/x', { token: as })).status).toBe(401);
    }
  });
});
