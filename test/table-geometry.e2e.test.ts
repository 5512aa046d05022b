// Floor-plan geometry on tables (docs/floor-plan.md): REST and GraphQL, validation against the room, moves
// between rooms, and the tables.status event carrying it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintToken, newTenantId } from '@coperto/testkit';
import { collect, graphqlWsClient } from '../gateway/test/support/ws-clients.js';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

describe.each(MODES)('table geometry (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;
  let big: { id: string };
  let small: { id: string };

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
    big = (await stack.api('POST', '/api/sale', { token, body: { codice: 'big', width: 1000, height: 500 } }))
      .body;
    small = (
      await stack.api('POST', '/api/sale', { token, body: { codice: 'small', width: 300, height: 200 } })
    ).body;
  });
  afterAll(async () => stack?.close());

  const createTable = (body: Record<string, unknown>) => stack.api('POST', '/api/tavoli', { token, body });
  const patchTable = (id: string, body: Record<string, unknown>) =>
    stack.api('PATCH', `/api/tavoli/${id}`, { token, body });
  const expectRefused = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error.details)).toContain(`"${field}"`);
  };

  it('stores and returns the geometry given on create (REST and GraphQL)', async () => {
    const created = await createTable({
      name: 'T1',
      seats: 4,
      roomId: big.id,
      x: 900.5,
      y: 120,
      width: 120,
      height: 60,
      shape: 'round',
      rotation: 45,
    });
    expect(created.status).toBe(201);
    const geometry = { x: 900.5, y: 120, width: 120, height: 60, shape: 'round', rotation: 45 };
    expect(created.body).toMatchObject(geometry);
    expect((await stack.api('GET', `/api/tavoli/${created.body.id}`, { token })).body).toMatchObject(
      geometry,
    );
    const gql = await stack.graphql(
      token,
      `query ($id: ID!) { tavolo(id: $id) { x y width height shape rotation } }`,
      {
        id: created.body.id,
      },
    );
    expect(gql.body.data.tavolo).toEqual(geometry);
  });

  it('gives a table without geometry the defaults and no position (not placed)', async () => {
    const created = await createTable({ name: 'T2', seats: 2, roomId: big.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      x: null,
      y: null,
      width: 80,
      height: 80,
      shape: 'rect',
      rotation: 0,
    });
  });

  it.each([
    [{ x: 1001, y: 10 }, 'x'],
    [{ x: 10, y: 500.1 }, 'y'],
    [{ x: -1, y: 10 }, 'x'],
    [{ x: 10 }, 'y'],
    [{ x: 10, y: 10, shape: 'oval' }, 'shape'],
    [{ x: 10, y: 10, rotation: 360 }, 'rotation'],
    [{ x: 10, y: 10, rotation: 12.5 }, 'rotation'],
    [{ x: 10, y: 10, width: 0 }, 'width'],
    [{ x: 10, y: 10, height: -5 }, 'height'],
    [{ x: 'left', y: 10 }, 'x'],
  ])('refuses %j in a 1000 × 500 room with 400 naming %s', async (geometry, field) => {
    expectRefused(await createTable({ name: 'bad', seats: 2, roomId: big.id, ...geometry }), field);
  });

  it('accepts the room edges as centres and any position for a table without a room', async () => {
    expect((await createTable({ name: 'edge', seats: 2, roomId: big.id, x: 1000, y: 0 })).status).toBe(201);
    expect((await createTable({ name: 'loose', seats: 2, x: 5000, y: 5000 })).status).toBe(201);
  });

  it('updates the geometry with PATCH, checked against the table’s room', async () => {
    const table = (await createTable({ name: 'P1', seats: 4, roomId: big.id, x: 100, y: 100 })).body;
    const moved = await patchTable(table.id, { x: 700, rotation: 90, shape: 'round' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ x: 700, y: 100, rotation: 90, shape: 'round', width: 80 });
    expectRefused(await patchTable(table.id, { y: 501 }), 'y');
    expect((await stack.api('GET', `/api/tavoli/${table.id}`, { token })).body).toMatchObject({
      x: 700,
      y: 100,
    });
    const unplaced = await patchTable(table.id, { x: null, y: null });
    expect(unplaced.body).toMatchObject({ x: null, y: null, rotation: 90 });
  });

  it('moves a table to another room only when it stays inside it', async () => {
    const table = (await createTable({ name: 'M1', seats: 4, roomId: big.id, x: 800, y: 100 })).body;
    const refused = await patchTable(table.id, { roomId: small.id });
    expectRefused(refused, 'x');
    expect(refused.body.error.message).toContain('300');
    expect((await stack.api('GET', `/api/tavoli/${table.id}`, { token })).body.roomId).toBe(big.id);
    const moved = await patchTable(table.id, { roomId: small.id, x: 250, y: 150 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ roomId: small.id, x: 250, y: 150 });
    const unplaced = (await createTable({ name: 'M2', seats: 2, roomId: big.id })).body;
    expect((await patchTable(unplaced.id, { roomId: small.id })).status).toBe(200);
  });

  it('carries the geometry in the subscription’s tableStatusChanged', async () => {
    const table = (await createTable({ name: 'S1', seats: 2, roomId: big.id, x: 300, y: 200, rotation: 15 }))
      .body;
    const client = graphqlWsClient(`${stack.baseUrl.replace(/^http/, 'ws')}/graphql`, bearer(token));
    const received = collect<{ tableStatusChanged: { data: Record<string, unknown> } }>(
      client,
      `subscription { tableStatusChanged { data { id x y width height shape rotation } } }`,
    );
    try {
      // Subscribing has no acknowledgement: change the status until an event arrives (bounded).
      const deadline = Date.now() + 30_000;
      for (let i = 0; received.items.length === 0 && Date.now() < deadline; i++) {
        const status = i % 2 === 0 ? 'occupied' : 'free';
        await stack.api('PUT', `/api/tavoli/${table.id}/status`, { token, body: { status } });
        await received.waitFor(1, 1000);
      }
      expect(received.items[0]?.tableStatusChanged.data).toEqual({
        id: table.id,
        x: 300,
        y: 200,
        width: 80,
        height: 80,
        shape: 'rect',
        rotation: 15,
      });
    } finally {
      received.stop();
      await client.dispose();
    }
  });

  it('carries the geometry in the tables.status event', async () => {
    const table = (
      await createTable({ name: 'E1', seats: 4, roomId: small.id, x: 50, y: 60, shape: 'round' })
    ).body;
    const events = stack.events(`tenant.${tenant}.restaurant.tables.status`);
    try {
      const put = await stack.api('PUT', `/api/tavoli/${table.id}/status`, {
        token,
        body: { status: 'occupied' },
      });
      expect(put.status).toBe(200);
      const received = await events.waitFor(1);
      const event = received.find((e) => e.subject === table.id);
      expect(event?.data).toMatchObject({ x: 50, y: 60, width: 80, height: 80, shape: 'round', rotation: 0 });
    } finally {
      events.stop();
    }
  });
});
