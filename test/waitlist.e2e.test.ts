// The waitlist through the REST facade and the subscription, in both modes: add, today's queue with
// positions and estimates, notify, seat (walk-in booking, tables occupied), left, cancel; the event of each
// change on tenant.<t>.restaurant.waitlist.updated; tenant isolation and validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId } from '@coperto/testkit';
import { collect, graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WAITLIST = `subscription { waitlistChanged { id type subject data { id state customerName covers position
  quotedMinutes tableIds prenotazioneId } } }`;

describe.each(MODES)('waitlist (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => stack?.close());

  const api = (method: 'GET' | 'POST', path: string, body?: unknown, as = token) =>
    stack.api(method, path, { token: as, ...(body === undefined ? {} : { body }) });
  const add = (body: Record<string, unknown>, as = token) => api('POST', '/api/attesa', body, as);
  const table = async (seats: number, as = token) => {
    const res = await api('POST', '/api/tavoli', { name: `W${Math.random()}`, seats }, as);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const waitlistEvents = () => stack.events(`tenant.${tenant}.restaurant.waitlist.updated`);

  it('adds a party (201, both name forms, English wins), lists it with its position and estimate, publishes waitlist.added', async () => {
    const t4 = await table(4);
    const events = waitlistEvents();
    try {
      const res = await add({
        customerName: 'Rossi',
        cliente: 'Bianchi',
        numeroPersone: 3,
        notes: 'terrace',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({
        customerName: 'Rossi',
        cliente: 'Rossi',
        covers: 3,
        numeroPersone: 3,
        notes: 'terrace',
        state: 'waiting',
        tableIds: [],
        prenotazioneId: null,
      });
      expect(res.body.position).toBeGreaterThanOrEqual(1);
      expect(res.body.quotedMinutes).toEqual(expect.any(Number));
      const list = await api('GET', '/api/attesa');
      expect(list.status).toBe(200);
      const mine = list.body.find((e: { id: string }) => e.id === res.body.id);
      expect(mine).toMatchObject({ state: 'waiting', position: res.body.position });
      expect(mine.estimatedMinutes).toEqual(expect.any(Number));
      expect(list.body.map((e: { position: number }) => e.position)).toEqual(
        list.body.map((_: unknown, i: number) => i + 1),
      );
      const [event] = (await events.waitFor(1)).filter((e) => e.subject === res.body.id);
      expect(event).toMatchObject({ type: 'waitlist.added', tenantid: tenant, data: { id: res.body.id } });
      expect(mine.suggestedTableIds).toEqual([t4]);
      // Leave the queue empty for the next tests.
      expect((await api('POST', `/api/attesa/${res.body.id}/annulla`)).status).toBe(200);
    } finally {
      events.stop();
    }
  });

  it('refuses bad parties with 400 naming the field', async () => {
    for (const [body, field] of [
      [{ covers: 2 }, 'customerName'],
      [{ customerName: '', covers: 2 }, 'customerName'],
      [{ customerName: 'A', covers: 0 }, 'covers'],
      [{ customerName: 'A', covers: 1001 }, 'covers'],
      [{ customerName: 'A', covers: 'two' }, 'covers'],
      [{ customerName: 'A', covers: 2, notes: 'x'.repeat(2001) }, 'notes'],
    ] as const) {
      const res = await add(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error)).toContain(field);
    }
    const seatBoth = await api('POST', `/api/attesa/whatever/siedi`, { tableIds: ['a'], combinationId: 'b' });
    expect(seatBoth.status).toBe(400);
    const badState = await api('POST', `/api/attesa/whatever/annulla`, { state: 'seated' });
    expect(badState.status).toBe(400);
  });

  it('notify, then seat on the suggested table: one confermata booking, the table occupied, one event each', async () => {
    const t2 = await table(2);
    const events = waitlistEvents();
    try {
      const party = (await add({ customerName: 'Verdi', covers: 2, customerPhone: '333' })).body;
      const notified = await api('POST', `/api/attesa/${party.id}/avvisa`);
      expect(notified.status).toBe(200);
      expect(notified.body).toMatchObject({ state: 'notified' });
      expect(notified.body.notifiedAt).toEqual(expect.any(String));
      const seated = await api('POST', `/api/attesa/${party.id}/siedi`);
      expect(seated.status, JSON.stringify(seated.body)).toBe(200);
      expect(seated.body).toMatchObject({ state: 'seated', tableIds: [t2], position: null });
      const booking = await api('GET', `/api/prenotazioni/${seated.body.prenotazioneId}`);
      expect(booking.status).toBe(200);
      expect(booking.body).toMatchObject({
        state: 'confermata',
        covers: 2,
        customerName: 'Verdi',
        customerPhone: '333',
        tableIds: [t2],
      });
      expect(Math.abs(Date.parse(booking.body.startsAt) - Date.now())).toBeLessThan(60_000);
      expect((await api('GET', `/api/tavoli/${t2}`)).body.status).toBe('occupied');
      // Again: the same answer, no second booking.
      const again = await api('POST', `/api/attesa/${party.id}/siedi`, { tableIds: [t2] });
      expect(again.body).toMatchObject({ state: 'seated', prenotazioneId: seated.body.prenotazioneId });
      const onTable = await api('GET', `/api/prenotazioni?tableId=${t2}`);
      expect(onTable.body).toHaveLength(1);
      // Seated is final.
      const late = await api('POST', `/api/attesa/${party.id}/annulla`, { state: 'left' });
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('INVALID_TRANSITION');
      await events.waitFor(3);
      await sleep(200); // nothing more arrives
      expect(events.received.filter((e) => e.subject === party.id).map((e) => e.type)).toEqual([
        'waitlist.added',
        'waitlist.notified',
        'waitlist.seated',
      ]);
    } finally {
      events.stop();
    }
  });

  it('left and cancelled, each with its event; a seat with nothing free is 409 NO_TABLE_AVAILABLE', async () => {
    const events = waitlistEvents();
    try {
      const a = (await add({ customerName: 'Left', covers: 40 })).body;
      const b = (await add({ customerName: 'Cancelled', covers: 40 })).body;
      expect(a.quotedMinutes).toBeNull(); // no table holds 40
      const none = await api('POST', `/api/attesa/${a.id}/siedi`, {});
      expect(none.status).toBe(409);
      expect(none.body.error.code).toBe('NO_TABLE_AVAILABLE');
      const left = await api('POST', `/api/attesa/${a.id}/annulla`, { state: 'left', motivo: 'too long' });
      expect(left.body).toMatchObject({ state: 'left', motivo: 'too long' });
      const cancelled = await api('POST', `/api/attesa/${b.id}/annulla`, {});
      expect(cancelled.body).toMatchObject({ state: 'cancelled' });
      const list = (await api('GET', '/api/attesa')).body as Array<{ id: string }>;
      expect(list.map((e) => e.id)).not.toContain(a.id);
      expect(list.map((e) => e.id)).not.toContain(b.id);
      await events.waitFor(4);
      const types = (id: string) => events.received.filter((e) => e.subject === id).map((e) => e.type);
      expect(types(a.id)).toEqual(['waitlist.added', 'waitlist.left']);
      expect(types(b.id)).toEqual(['waitlist.added', 'waitlist.cancelled']);
    } finally {
      events.stop();
    }
  });

  it('another tenant’s entry is 404 and absent from its list', async () => {
    const mine = (await add({ customerName: 'Mine', covers: 2 })).body;
    const other = await mintToken({ tenantId: newTenantId() });
    expect((await api('GET', `/api/attesa/${mine.id}`, undefined, other)).status).toBe(404);
    for (const action of ['avvisa', 'siedi', 'annulla']) {
      const res = await api('POST', `/api/attesa/${mine.id}/${action}`, {}, other);
      expect(res.status, action).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await api('GET', '/api/attesa', undefined, other)).body).toEqual([]);
    expect((await api('GET', `/api/attesa/${mine.id}`)).body).toMatchObject({ state: 'waiting' });
    await api('POST', `/api/attesa/${mine.id}/annulla`);
  });

  it('waitlistChanged follows the tenant’s waitlist over graphql-ws, and only its own', async () => {
    const url = `${stack.baseUrl.replace(/^http/, 'ws')}/graphql`;
    const other = await mintToken({ tenantId: newTenantId() });
    const mineClient = graphqlWsClient(url, bearer(token));
    const otherClient = graphqlWsClient(url, bearer(other));
    try {
      const mine = collect(mineClient, WAITLIST);
      const theirs = collect(otherClient, WAITLIST);
      // Subscribing has no acknowledgement: add parties until one arrives (at once when embedded). Events of
      // the earlier tests may still be on their way (distributed): only the parties added here count.
      const added: string[] = [];
      const ours = () => mine.items.map((i) => i.waitlistChanged).filter((e) => added.includes(e.subject));
      const deadline = Date.now() + 30_000;
      while (ours().length === 0 && Date.now() < deadline) {
        added.push((await add({ customerName: 'Live', covers: 2 })).body.id);
        await sleep(500);
      }
      const first = ours()[0];
      expect(first).toMatchObject({
        type: 'waitlist.added',
        data: { state: 'waiting', customerName: 'Live' },
      });
      await api('POST', `/api/attesa/${first.subject}/annulla`, { state: 'left' });
      const left = Date.now() + 20_000;
      while (!ours().some((e) => e.type === 'waitlist.left') && Date.now() < left) await sleep(50);
      expect(
        ours()
          .filter((e) => e.type === 'waitlist.left')
          .map((e) => e.subject),
      ).toEqual([first.subject]);
      expect(theirs.items).toEqual([]);
      for (const id of added) await api('POST', `/api/attesa/${id}/annulla`);
    } finally {
      await mineClient.dispose();
      await otherClient.dispose();
    }
  });
});
