import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

describe.each(MODES)('tables and rooms (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;
  let admin: string;
  let otherToken: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    otherToken = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  const createSala = async (body: Record<string, unknown>, as = token) =>
    stack.api('POST', '/api/sale', { token: as, body });
  const createTavolo = async (body: Record<string, unknown>, as = token) =>
    stack.api('POST', '/api/tavoli', { token: as, body });

  describe('rooms', () => {
    it('creates a room with an upper-cased, trimmed codice, default size and the English aliases', async () => {
      const res = await createSala({ codice: '  terrazza ', descrizione: 'Terrazza sul mare' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        codice: 'TERRAZZA',
        descrizione: 'Terrazza sul mare',
        name: 'Terrazza sul mare',
        width: 800,
        height: 600,
      });
      expect(res.body.id).toEqual(expect.any(String));
    });

    it('names a room by its codice when it has no description, and keeps a given size', async () => {
      const res = await createSala({ codice: 'sala2', width: 1200.5, height: 300 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        codice: 'SALA2',
        name: 'SALA2',
        descrizione: null,
        width: 1200.5,
        height: 300,
      });
    });

    it('refuses a duplicate codice in the same tenant (409) but not in another tenant', async () => {
      expect((await createSala({ codice: 'dup' })).status).toBe(201);
      const again = await createSala({ codice: ' DUP ' });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('DUPLICATE');
      expect((await createSala({ codice: 'dup' }, otherToken)).status).toBe(201);
    });

    it.each([
      [{}, 'codice'],
      [{ codice: '' }, 'codice'],
      [{ codice: 'x', width: -1 }, 'width'],
      [{ codice: 'x', height: 0 }, 'height'],
      [{ codice: 'x', width: 'wide' }, 'width'],
      [{ codice: 42 }, 'codice'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await createSala(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('lists, reads, updates and deletes a room; another tenant sees none of it', async () => {
      const created = (await createSala({ codice: 'crud', descrizione: 'Prima' })).body;
      const list = await stack.api('GET', '/api/sale', { token });
      expect(list.status).toBe(200);
      expect(list.body.map((s: { id: string }) => s.id)).toContain(created.id);
      for (const s of list.body) expect(s).toHaveProperty('name');

      expect((await stack.api('GET', `/api/sale/${created.id}`, { token })).body).toMatchObject({
        codice: 'CRUD',
      });
      const patched = await stack.api('PATCH', `/api/sale/${created.id}`, {
        token,
        body: { descrizione: 'Dopo' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Dopo', codice: 'CRUD' });

      const foreignList = await stack.api('GET', '/api/sale', { token: otherToken });
      expect(foreignList.body.map((s: { id: string }) => s.id)).not.toContain(created.id);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { descrizione: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await stack.api(method, `/api/sale/${created.id}`, { token: otherToken, body });
        expect(res.status, `${method} by another tenant`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }

      expect((await stack.api('DELETE', `/api/sale/${created.id}`, { token })).body).toEqual({
        id: created.id,
        deleted: true,
      });
      expect((await stack.api('GET', `/api/sale/${created.id}`, { token })).status).toBe(404);
    });

    it('refuses to delete a room while tables are in it', async () => {
      const sala = (await createSala({ codice: 'busy' })).body;
      const tavolo = (await createTavolo({ name: 'T-busy', seats: 2, roomId: sala.id })).body;
      const refused = await stack.api('DELETE', `/api/sale/${sala.id}`, { token });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('IN_USE');
      expect((await stack.api('DELETE', `/api/tavoli/${tavolo.id}`, { token })).status).toBe(200);
      expect((await stack.api('DELETE', `/api/sale/${sala.id}`, { token })).status).toBe(200);
    });
  });

  describe('tables', () => {
    it('creates a table from Italian or English names (English wins) and answers with both', async () => {
      const sala = (await createSala({ codice: 'main' })).body;
      const italian = await createTavolo({ nome: 'T1', capacita: 4, salaId: sala.id, posizione: 'finestra' });
      expect(italian.status).toBe(201);
      expect(italian.body).toMatchObject({
        nome: 'T1',
        name: 'T1',
        capacita: 4,
        seats: 4,
        stato: 'free',
        status: 'free',
        salaId: sala.id,
        roomId: sala.id,
        attivo: true,
        posizione: 'finestra',
        lock: null,
      });
      const both = await createTavolo({ nome: 'Italiano', name: 'English', capacita: 2, seats: 6 });
      expect(both.body).toMatchObject({ name: 'English', nome: 'English', seats: 6, capacita: 6 });
    });

    it.each([
      [{ seats: 4 }, 'name'],
      [{ name: 'T' }, 'seats'],
      [{ name: 'T', seats: 0 }, 'seats'],
      [{ name: 'T', seats: 2.5 }, 'seats'],
      [{ name: 'T', seats: '4' }, 'seats'],
      [{ name: 'T', seats: 4, attivo: 'yes' }, 'attivo'],
      [{ name: 'T', seats: 4, roomId: 'no-such-room' }, 'roomId'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await createTavolo(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('filters the list by attivo, capacitaMin, posizione and salaId', async () => {
      const tenantToken = await mintToken({ tenantId: newTenantId() });
      const sala = (await createSala({ codice: 'f' }, tenantToken)).body;
      const make = (body: Record<string, unknown>) => createTavolo(body, tenantToken).then((r) => r.body);
      const a = await make({ name: 'A', seats: 2, posizione: 'finestra', roomId: sala.id });
      const b = await make({ name: 'B', seats: 6, posizione: 'centro' });
      const c = await make({ name: 'C', seats: 8, posizione: 'finestra', attivo: false });
      const names = async (query: string) =>
        (await stack.api('GET', `/api/tavoli${query}`, { token: tenantToken })).body.map(
          (t: { name: string }) => t.name,
        );
      expect(await names('')).toEqual(['A', 'B', 'C']);
      expect(await names('?attivo=true')).toEqual(['A', 'B']);
      expect(await names('?attivo=false')).toEqual(['C']);
      expect(await names('?capacitaMin=6')).toEqual(['B', 'C']);
      expect(await names('?posizione=finestra')).toEqual(['A', 'C']);
      expect(await names(`?salaId=${sala.id}`)).toEqual(['A']);
      expect(await names('?attivo=true&capacitaMin=3&posizione=centro')).toEqual(['B']);
      expect([a.id, b.id, c.id].every(Boolean)).toBe(true);
      const list = await stack.api('GET', '/api/tavoli', { token: tenantToken });
      for (const t of list.body)
        expect(Object.keys(t)).toEqual(expect.arrayContaining(['id', 'name', 'seats', 'status', 'roomId']));
    });

    it.each(['?capacitaMin=abc', '?attivo=maybe', '?capacitaMin=2.5'])(
      'refuses the filter %s with 400',
      async (query) => {
        const res = await stack.api('GET', `/api/tavoli${query}`, { token });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
      },
    );

    it('reads, updates and deletes a table', async () => {
      const t = (await createTavolo({ name: 'Edit', seats: 2 })).body;
      expect((await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body).toMatchObject({ name: 'Edit' });
      const patched = await stack.api('PATCH', `/api/tavoli/${t.id}`, {
        token,
        body: { seats: 5, nome: 'Nuovo' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ seats: 5, capacita: 5, name: 'Nuovo' });
      expect((await stack.api('PATCH', `/api/tavoli/${t.id}`, { token, body: { seats: -2 } })).status).toBe(
        400,
      );
      expect((await stack.api('DELETE', `/api/tavoli/${t.id}`, { token })).body).toEqual({
        id: t.id,
        deleted: true,
      });
      expect((await stack.api('GET', `/api/tavoli/${t.id}`, { token })).status).toBe(404);
      expect((await stack.api('DELETE', `/api/tavoli/${t.id}`, { token })).status).toBe(404);
    });
  });

  describe('table status', () => {
    it('accepts each of the six statuses from any status and publishes tables.status with previousStatus', async () => {
      const t = (await createTavolo({ name: 'S', seats: 4 })).body;
      const events = stack.events(`tenant.${tenant}.restaurant.tables.status`);
      try {
        const sequence = [
          'occupied',
          'open',
          'dirty',
          'reserved',
          'payment_pending',
          'free',
          'payment_pending',
        ];
        for (const status of sequence) {
          const res = await stack.api('PUT', `/api/tavoli/${t.id}/status`, { token, body: { status } });
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ status, stato: status });
        }
        const received = (await events.waitFor(sequence.length)).filter((e) => e.subject === t.id);
        expect(received.map((e) => (e.data as { status: string }).status)).toEqual(sequence);
        expect(received.map((e) => (e.data as { previousStatus: string }).previousStatus)).toEqual([
          'free',
          ...sequence.slice(0, -1),
        ]);
        const first = received[0]!;
        expect(first).toMatchObject({
          specversion: '1.0',
          type: 'tables.status',
          datacontenttype: 'application/json',
          tenantid: tenant,
          subject: t.id,
        });
        expect((first.data as { name: string }).name).toBe('S');
      } finally {
        events.stop();
      }
    });

    it('keeps the order fields, accepts 0 as totalAmount, and clears them when the table goes free', async () => {
      const t = (await createTavolo({ name: 'O', seats: 4 })).body;
      const occupied = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
        token,
        body: { status: 'occupied', orderId: 'ord-1', pax: 3, totalAmount: 0 },
      });
      expect(occupied.body).toMatchObject({ orderId: 'ord-1', pax: 3, totalAmount: 0 });
      const paying = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
        token,
        body: { status: 'payment_pending', totalAmount: 86.5 },
      });
      expect(paying.body).toMatchObject({ orderId: 'ord-1', pax: 3, totalAmount: 86.5 });
      const free = await stack.api('PUT', `/api/tavoli/${t.id}/status`, { token, body: { status: 'free' } });
      expect(free.body).toMatchObject({ status: 'free', orderId: null, pax: null, totalAmount: null });
    });

    it.each([
      [{}, 'status'],
      [{ status: 'flying' }, 'status'],
      [{ status: 'FREE' }, 'status'],
      [{ status: 'occupied', pax: -1 }, 'pax'],
      [{ status: 'occupied', pax: 'three' }, 'pax'],
      [{ status: 'occupied', totalAmount: -5 }, 'totalAmount'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const t = (await createTavolo({ name: 'V', seats: 2 })).body;
      const res = await stack.api('PUT', `/api/tavoli/${t.id}/status`, { token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('publishes nothing and answers 404 for an unknown or foreign table', async () => {
      const t = (await createTavolo({ name: 'F', seats: 2 })).body;
      const events = stack.events(`tenant.*.restaurant.tables.status`);
      try {
        const foreign = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
          token: otherToken,
          body: { status: 'occupied' },
        });
        expect(foreign.status).toBe(404);
        const unknown = await stack.api('PUT', '/api/tavoli/nope/status', {
          token,
          body: { status: 'occupied' },
        });
        expect(unknown.status).toBe(404);
        // A later accepted change proves the bus was delivering: only that one arrives.
        await stack.api('PUT', `/api/tavoli/${t.id}/status`, { token, body: { status: 'dirty' } });
        // Every tenant's events (the stack is shared with other files): wait for this table's.
        const deadline = Date.now() + 10_000;
        while (!events.received.some((e) => e.subject === t.id) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        expect(
          events.received.filter((e) => e.subject === t.id).map((e) => (e.data as { status: string }).status),
        ).toEqual(['dirty']);
        expect((await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body.status).toBe('dirty');
      } finally {
        events.stop();
      }
    });
  });

  describe('cached reads', () => {
    it('serves repeated reads from the cache and never a read older than an acknowledged write', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const t = (await createTavolo({ name: 'C', seats: 2 }, own)).body;
      const list = () => stack.api('GET', '/api/tavoli', { token: own });
      const one = () => stack.api('GET', `/api/tavoli/${t.id}`, { token: own });
      expect((await list()).headers.get('x-cache')).toBe('miss');
      const again = await list();
      expect(again.headers.get('x-cache')).toBe('hit');
      expect(again.body[0].status).toBe('free');
      const writes: Array<[string, string, unknown, (x: any) => void]> = [
        [
          'PUT',
          `/api/tavoli/${t.id}/status`,
          { status: 'occupied' },
          (x) => expect(x.status).toBe('occupied'),
        ],
        ['PATCH', `/api/tavoli/${t.id}`, { seats: 7 }, (x) => expect(x.seats).toBe(7)],
        ['POST', `/api/tavoli/${t.id}/lock`, { deviceId: 'd' }, (x) => expect(x.lock.deviceId).toBe('d')],
        ['POST', `/api/tavoli/${t.id}/unlock`, { deviceId: 'd' }, (x) => expect(x.lock).toBeNull()],
      ];
      for (const [method, path, body, check] of writes) {
        await one();
        await list();
        expect((await stack.api(method, path, { token: own, body })).status).toBeLessThan(300);
        check((await one()).body);
        check((await list()).body[0]);
      }
      // Another tenant's cache is its own.
      expect(
        (await stack.api('GET', '/api/tavoli', { token: otherToken })).body.map((x: { id: string }) => x.id),
      ).not.toContain(t.id);
    });

    it('answers the availability check with every table write at once (the per-tenant table list is never stale)', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const roomA = (await createSala({ codice: 'AV1' }, own)).body.id as string;
      const roomB = (await createSala({ codice: 'AV2' }, own)).body.id as string;
      const free = async (salaId?: string, numeroPersone = 2) => {
        const res = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
          token: own,
          body: {
            dataOra: '2031-02-03T20:00:00',
            numeroPersone,
            durataMediaPasto: 60,
            ...(salaId ? { salaId } : {}),
          },
        });
        expect(res.status).toBe(200);
        return (res.body.availableTables as Array<{ name: string }>).map((t) => t.name).sort();
      };
      const t = (await createTavolo({ name: 'AV-T', seats: 2, roomId: roomA }, own)).body;
      expect(await free(roomA)).toEqual(['AV-T']);
      expect(await free(roomA)).toEqual(['AV-T']); // served from the kept list
      const other = (await createTavolo({ name: 'AV-U', seats: 4, roomId: roomA }, own)).body;
      expect(await free(roomA)).toEqual(['AV-T', 'AV-U']);
      const patch = (id: string, body: unknown) =>
        stack.api('PATCH', `/api/tavoli/${id}`, { token: own, body });
      expect((await patch(t.id, { roomId: roomB })).status).toBe(200);
      expect([await free(roomA), await free(roomB), await free()]).toEqual([
        ['AV-U'],
        ['AV-T'],
        ['AV-T', 'AV-U'],
      ]);
      expect((await patch(other.id, { seats: 1 })).status).toBe(200);
      expect(await free(roomA)).toEqual([]);
      expect((await patch(t.id, { attivo: false })).status).toBe(200);
      expect(await free(roomB)).toEqual([]);
      expect((await patch(t.id, { attivo: true })).status).toBe(200);
      expect(await free(roomB)).toEqual(['AV-T']);
      expect((await stack.api('DELETE', `/api/tavoli/${t.id}`, { token: own })).status).toBeLessThan(300);
      expect(await free()).toEqual([]);
      // Another tenant's check never sees these tables.
      const foreign = await stack.api('POST', '/api/tavoli/verifica-disponibilita', {
        token: otherToken,
        body: { dataOra: '2031-02-03T20:00:00', numeroPersone: 1, durataMediaPasto: 60 },
      });
      expect(foreign.body.availableTables.map((x: { id: string }) => x.id)).not.toContain(other.id);
    });

    it('answers a burst of identical misses with one execution, and counts it in graphql_operations_total', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      await createTavolo({ name: 'B', seats: 2 }, own);
      const executions = async () => {
        const text = await (await fetch(stack.metricsUrl)).text();
        const line = text
          .split('\n')
          .find(
            (l) =>
              l.startsWith('graphql_operations_total{') &&
              l.includes('operation="ListTavoli"') &&
              l.includes('outcome="success"'),
          );
        return Number(line?.split(' ').pop() ?? 0);
      };
      const before = await executions();
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => stack.api('GET', '/api/tavoli', { token: own })),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(burst.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(burst[0]!.body.map((x: { name: string }) => x.name)).toEqual(['B']);
      // One execution fills the cache for all of them (a request that missed just before the fill ended may
      // start one more); without coalescing, each concurrent miss runs the operation.
      const ran = (await executions()) - before;
      expect(ran).toBeGreaterThanOrEqual(1);
      expect(ran).toBeLessThanOrEqual(2);
    });
  });

  describe('locks', () => {
    it('locks with the default ttl of 300 s, refreshes for the holder and refuses another device', async () => {
      const t = (await createTavolo({ name: 'L', seats: 2 })).body;
      const lock = await stack.api('POST', `/api/tavoli/${t.id}/lock`, {
        token,
        body: { deviceId: 'dev-a', operatorName: 'Anna' },
      });
      expect(lock.status).toBe(200);
      expect(lock.body).toMatchObject({ tableId: t.id, deviceId: 'dev-a', operatorName: 'Anna', ttl: 300 });
      const span = Date.parse(lock.body.expiresAt) - Date.parse(lock.body.acquiredAt);
      expect(span).toBe(300_000);

      const refresh = await stack.api('POST', `/api/tavoli/${t.id}/lock`, {
        token,
        body: { deviceId: 'dev-a', ttl: 600 },
      });
      expect(refresh.status).toBe(200);
      expect(refresh.body.ttl).toBe(600);

      const conflict = await stack.api('POST', `/api/tavoli/${t.id}/lock`, {
        token,
        body: { deviceId: 'dev-b' },
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({
        code: 'LOCK_CONFLICT',
        details: { deviceId: 'dev-a', expiresAt: refresh.body.expiresAt },
      });
      const shown = await stack.api('GET', `/api/tavoli/${t.id}`, { token });
      expect(shown.body.lock).toMatchObject({ deviceId: 'dev-a', tableId: t.id });
    });

    it('lets only the holder unlock; no lock is released: false; another device gets 403', async () => {
      const t = (await createTavolo({ name: 'U', seats: 2 })).body;
      expect(
        (await stack.api('POST', `/api/tavoli/${t.id}/unlock`, { token, body: { deviceId: 'x' } })).body,
      ).toEqual({
        tableId: t.id,
        released: false,
      });
      await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'holder' } });
      const stranger = await stack.api('POST', `/api/tavoli/${t.id}/unlock`, {
        token,
        body: { deviceId: 'other' },
      });
      expect(stranger.status).toBe(403);
      expect(stranger.body.error.code).toBe('LOCK_NOT_OWNED');
      const mine = await stack.api('POST', `/api/tavoli/${t.id}/unlock`, {
        token,
        body: { deviceId: 'holder' },
      });
      expect(mine.body).toEqual({ tableId: t.id, released: true });
      expect(
        (await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'other' } })).status,
      ).toBe(200);
    });

    it('lets only an administrator force the release', async () => {
      const t = (await createTavolo({ name: 'A', seats: 2 })).body;
      await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'dev' } });
      const denied = await stack.api('DELETE', `/api/tavoli/${t.id}/lock`, { token });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('FORBIDDEN');
      const forced = await stack.api('DELETE', `/api/tavoli/${t.id}/lock`, { token: admin });
      expect(forced.status).toBe(200);
      expect(forced.body).toEqual({ tableId: t.id, released: true });
      expect((await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body.lock).toBeNull();
      const foreignAdmin = await mintToken({ tenantId: newTenantId(), admin: true });
      expect((await stack.api('DELETE', `/api/tavoli/${t.id}/lock`, { token: foreignAdmin })).status).toBe(
        404,
      );
    });

    it('treats an expired lock as no lock', async () => {
      const t = (await createTavolo({ name: 'E', seats: 2 })).body;
      await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'short', ttl: 1 } });
      expect(
        (await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'late' } })).status,
      ).toBe(409);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body.lock).toBeNull();
      const taken = await stack.api('POST', `/api/tavoli/${t.id}/lock`, {
        token,
        body: { deviceId: 'late' },
      });
      expect(taken.status).toBe(200);
      expect(taken.body.deviceId).toBe('late');
    });

    it.each([
      [{}, 'deviceId'],
      [{ deviceId: '' }, 'deviceId'],
      [{ deviceId: 'd', ttl: 0 }, 'ttl'],
      [{ deviceId: 'd', ttl: 3601 }, 'ttl'],
      [{ deviceId: 'd', ttl: 'long' }, 'ttl'],
    ])('refuses the lock body %j with 400 naming %s', async (body, field) => {
      const t = (await createTavolo({ name: 'B', seats: 2 })).body;
      const res = await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('gives the lock to exactly one of 25 devices racing for it', async () => {
      const t = (await createTavolo({ name: 'Race', seats: 2 })).body;
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: `device-${i}` } }),
        ),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(24);
      const holder = (await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body.lock.deviceId;
      expect(holder).toBe(winners[0]!.body.deviceId);
    });

    it('refuses writes carrying another device id while locked; writes without a device id pass', async () => {
      const t = (await createTavolo({ name: 'W', seats: 2 })).body;
      await stack.api('POST', `/api/tavoli/${t.id}/lock`, { token, body: { deviceId: 'owner' } });
      const blocked = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
        token,
        body: { status: 'occupied', deviceId: 'intruder' },
      });
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe('LOCK_CONFLICT');
      const patchBlocked = await stack.api('PATCH', `/api/tavoli/${t.id}`, {
        token,
        body: { seats: 9, deviceId: 'intruder' },
      });
      expect(patchBlocked.status).toBe(409);
      const owner = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
        token,
        body: { status: 'occupied', deviceId: 'owner' },
      });
      expect(owner.status).toBe(200);
      const backOffice = await stack.api('PUT', `/api/tavoli/${t.id}/status`, {
        token,
        body: { status: 'dirty' },
      });
      expect(backOffice.status).toBe(200);
    });
  });

  describe('authentication and tenancy', () => {
    it('answers 401 with WWW-Authenticate without a valid token, on every route', async () => {
      const expired = await mintToken({ tenantId: tenant, expiresIn: -60 });
      const routes: Array<[string, string]> = [
        ['GET', '/api/tavoli'],
        ['POST', '/api/tavoli'],
        ['GET', '/api/tavoli/x'],
        ['PATCH', '/api/tavoli/x'],
        ['DELETE', '/api/tavoli/x'],
        ['PUT', '/api/tavoli/x/status'],
        ['POST', '/api/tavoli/x/lock'],
        ['POST', '/api/tavoli/x/unlock'],
        ['DELETE', '/api/tavoli/x/lock'],
        ['POST', '/api/tavoli/verifica-disponibilita'],
        ['GET', '/api/sale'],
        ['POST', '/api/sale'],
        ['GET', '/api/sale/x'],
        ['PATCH', '/api/sale/x'],
        ['DELETE', '/api/sale/x'],
      ];
      for (const [method, path] of routes) {
        for (const bad of [undefined, 'garbage', expired]) {
          const res = await stack.api(method, path, {
            token: bad,
            ...(method === 'GET' ? {} : { body: {} }),
          });
          expect(res.status, `${method} ${path} with ${bad ? 'a bad' : 'no'} token`).toBe(401);
          expect(res.body.error.code).toBe('UNAUTHENTICATED');
          expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        }
      }
    });

    it('answers 404 for another tenant’s table on every table route, and changes nothing', async () => {
      const t = (await createTavolo({ name: 'Mine', seats: 2 })).body;
      const attempts: Array<[string, string, unknown]> = [
        ['GET', `/api/tavoli/${t.id}`, undefined],
        ['PATCH', `/api/tavoli/${t.id}`, { seats: 9 }],
        ['PUT', `/api/tavoli/${t.id}/status`, { status: 'occupied' }],
        ['POST', `/api/tavoli/${t.id}/lock`, { deviceId: 'thief' }],
        ['POST', `/api/tavoli/${t.id}/unlock`, { deviceId: 'thief' }],
        ['DELETE', `/api/tavoli/${t.id}/lock`, undefined],
        ['DELETE', `/api/tavoli/${t.id}`, undefined],
      ];
      const foreignAdmin = await mintToken({ tenantId: newTenantId(), admin: true });
      for (const [method, path, body] of attempts) {
        const res = await stack.api(method, path, { token: foreignAdmin, body });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      const list = await stack.api('GET', '/api/tavoli', { token: foreignAdmin });
      expect(list.body).toEqual([]);
      const after = (await stack.api('GET', `/api/tavoli/${t.id}`, { token })).body;
      expect(after).toMatchObject({ seats: 2, status: 'free', lock: null });
    });

    it('ignores a tenantId sent in the body or the query', async () => {
      const victim = newTenantId();
      const victimToken = await mintToken({ tenantId: victim });
      const created = await createTavolo({ name: 'Injected', seats: 2, tenantId: victim });
      expect(created.status).toBe(201);
      expect((await stack.api('GET', `/api/tavoli/${created.body.id}`, { token: victimToken })).status).toBe(
        404,
      );
      const list = await stack.api('GET', `/api/tavoli?tenantId=${victim}`, { token });
      expect(list.body.map((t: { id: string }) => t.id)).toContain(created.body.id);
    });
  });

  describe('HTTP plumbing', () => {
    it('refuses a body that is not JSON with 415 and malformed JSON with 400', async () => {
      const text = await stack.api('POST', '/api/sale', {
        token,
        raw: 'codice=x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const broken = await stack.api('POST', '/api/sale', { token, raw: '{"codice": ' });
      expect(broken.status).toBe(400);
      expect(broken.body.error.code).toBe('VALIDATION_FAILED');
      const array = await stack.api('POST', '/api/sale', { token, body: [1, 2] });
      expect(array.status).toBe(400);
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const res = await stack.api('POST', '/api/sale', {
        token,
        body: { codice: 'big', descrizione: 'x'.repeat(1024 * 1024 + 10) },
      });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('answers unknown routes with 404 and wrong methods with 405, in the error shape', async () => {
      const unknown = await stack.api('GET', '/api/nothing-here', { token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      const wrongMethod = await stack.api('PUT', '/api/sale', { token, body: {} });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toContain('GET');
      const getOnAction = await stack.api('GET', '/api/tavoli/verifica-disponibilita', { token });
      expect(getOnAction.status).toBe(405);
    });
  });

  describe('GraphQL for the back-office', () => {
    it('joins rooms and tables across the two subgraphs', async () => {
      const tenantToken = await mintToken({ tenantId: newTenantId() });
      const sala = (await createSala({ codice: 'join', descrizione: 'Giardino' }, tenantToken)).body;
      await createTavolo({ name: 'G1', seats: 2, roomId: sala.id }, tenantToken);
      await createTavolo({ name: 'G2', seats: 4, roomId: sala.id }, tenantToken);
      const res = await stack.graphql(
        tenantToken,
        `{ sale { codice name tavoli { name seats sala { codice } } } tavoli { name sala { name } } }`,
      );
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.sale).toEqual([
        {
          codice: 'JOIN',
          name: 'Giardino',
          tavoli: [
            { name: 'G1', seats: 2, sala: { codice: 'JOIN' } },
            { name: 'G2', seats: 4, sala: { codice: 'JOIN' } },
          ],
        },
      ]);
      expect(res.body.data.tavoli).toEqual([
        { name: 'G1', sala: { name: 'Giardino' } },
        { name: 'G2', sala: { name: 'Giardino' } },
      ]);
    });

    it('answers a repeated floor-plan query from the read cache, never older than an acknowledged write', async () => {
      const own = await mintToken({ tenantId: newTenantId() });
      const sala = (await createSala({ codice: 'cache' }, own)).body;
      const t = (await createTavolo({ name: 'K1', seats: 2, roomId: sala.id }, own)).body;
      const floor = async () => {
        const res = await stack.graphql(own, '{ sale { name tavoli { name seats status } } }');
        expect(res.status).toBe(200);
        expect(res.body.errors).toBeUndefined();
        return { cache: res.headers.get('x-cache'), sala: res.body.data.sale[0] };
      };
      expect((await floor()).cache).toBe('miss');
      expect(await floor()).toEqual({
        cache: 'hit',
        sala: { name: 'CACHE', tavoli: [{ name: 'K1', seats: 2, status: 'free' }] },
      });
      const writes: Array<[string, string, unknown, (x: any) => void]> = [
        [
          'PUT',
          `/api/tavoli/${t.id}/status`,
          { status: 'occupied' },
          (x) => expect(x.tavoli[0].status).toBe('occupied'),
        ],
        ['PATCH', `/api/tavoli/${t.id}`, { seats: 6 }, (x) => expect(x.tavoli[0].seats).toBe(6)],
        ['PATCH', `/api/sale/${sala.id}`, { descrizione: 'Veranda' }, (x) => expect(x.name).toBe('Veranda')],
      ];
      for (const [method, path, body, check] of writes) {
        await floor();
        expect((await stack.api(method, path, { token: own, body })).status).toBeLessThan(300);
        const after = await floor();
        expect(after.cache).toBe('miss');
        check(after.sala);
      }
      // Another tenant's answer is its own.
      const theirs = await stack.graphql(otherToken, '{ sale { name tavoli { name seats status } } }');
      expect(theirs.body.data.sale.map((x: { name: string }) => x.name)).not.toContain('Veranda');
    });

    it('refuses GraphQL without a token (401); introspection is off by default in distributed mode', async () => {
      const anonymous = await stack.graphql(undefined, '{ sale { id } }');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      const introspection = await stack.graphql(token, '{ __schema { types { name } } }');
      // Embedded mode turns the explorer, and with it introspection, on by default (test/explorer.e2e.test.ts).
      if (mode === 'distributed')
        expect(introspection.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      else expect(introspection.body.errors).toBeUndefined();
    });

    it('blocks a simple GET that could be a cross-site request, and serves one that proves it is not', async () => {
      const url = `/graphql?query=${encodeURIComponent('{ sale { id } }')}`;
      const simple = await stack.api('GET', url, { token });
      expect(simple.status).toBe(400);
      expect(JSON.stringify(simple.body)).toContain('Cross-Site Request Forgery');
      const preflighted = await stack.api('GET', url, {
        token,
        headers: { 'apollo-require-preflight': 'true' },
      });
      expect(preflighted.status).toBe(200);
      expect(preflighted.body.data.sale).toEqual(expect.any(Array));
    });

    it('reports domain errors with their codes', async () => {
      const res = await stack.graphql(
        token,
        'mutation { setTavoloStatus(id: "missing", input: { status: free }) { id } }',
      );
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('health', () => {
    it('answers live, ready and overview on the health port', async () => {
      const live = await fetch(`${stack.healthUrl}/public/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toMatchObject({ status: 'alive' });
      const ready = await fetch(`${stack.healthUrl}/public/health/ready`);
      expect(ready.status).toBe(200);
      const readyBody = await ready.json();
      expect(readyBody).toMatchObject({
        status: 'ready',
        checks: { bus: { status: 'up' }, cache: { status: 'up' } },
      });
      const overview = (await (await fetch(`${stack.healthUrl}/public/health/overview`)).json()) as any;
      expect(overview.nodeType).toBe('gateway');
      expect(overview.services).toEqual(
        expect.arrayContaining(mode === 'embedded' ? ['gateway', 'tavolo', 'sala'] : ['gateway']),
      );
      const familyB = await fetch(`${stack.healthUrl}/health`);
      expect(familyB.status).toBe(200);
    });
  });
});
