import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mintToken,
  newTenantId,
  serverUrls,
  startNatsServer,
  uniqueName,
  type TestServer,
} from '@coperto/testkit';
import { startDistributed, type ProcessHandle, type Stack } from './support/stack.js';

/** Calls a subgraph process directly (as the gateway or a sibling would), spreading load over instances. */
async function callSubgraph(
  instance: ProcessHandle,
  token: string,
  query: string,
  variables: Record<string, unknown>,
) {
  const response = await fetch(`http://127.0.0.1:${instance.port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: Array<{ extensions?: { code?: string } }> };
}

// Two instances of the subgraphs the races go through (tavolo's locks, prenotazione's claims); one of the others,
// whose own multi-instance behaviour their integration suites cover (webhooks' and the scheduler's leases).
describe('distributed mode with two instances of tavolo and prenotazione', () => {
  let stack: Stack & { subgraphs: Record<string, ProcessHandle[]> };
  let token: string;

  beforeAll(async () => {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    stack = await startDistributed({
      mongoUrl,
      natsUrl,
      redisUrl,
      database: uniqueName('multi'),
      instances: { tavolo: 2, prenotazione: 2 },
    });
    token = await mintToken({ tenantId: newTenantId() });
  });
  afterAll(async () => stack?.close());

  it('gives a table lock to exactly one of 24 devices racing through two tavolo instances', async () => {
    const t = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'Race', seats: 2 } })).body;
    const instances = stack.subgraphs.tavolo!;
    expect(instances).toHaveLength(2);
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        callSubgraph(
          instances[i % 2]!,
          token,
          'mutation($id: ID!, $d: String!) { lockTavolo(id: $id, input: { deviceId: $d }) { deviceId } }',
          { id: t.id, d: `device-${i}` },
        ),
      ),
    );
    const winners = results.filter((r) => r.data?.lockTavolo);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.errors?.[0]?.extensions?.code === 'LOCK_CONFLICT')).toHaveLength(23);
    const shown = await stack.api('GET', `/api/tavoli/${t.id}`, { token });
    expect(shown.body.lock.deviceId).toBe(winners[0]!.data.lockTavolo.deviceId);
  });

  it('lets exactly one of 20 bookings for the same table and slot through two prenotazione instances', async () => {
    const t = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'Slot', seats: 4 } })).body;
    const instances = stack.subgraphs.prenotazione!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        callSubgraph(
          instances[i % 2]!,
          token,
          'mutation($input: PrenotazioneInput!) { createPrenotazione(input: $input) { id } }',
          { input: { covers: 2, bookingDate: '2027-09-01T20:00', customerName: `R${i}`, tableIds: [t.id] } },
        ),
      ),
    );
    expect(results.filter((r) => r.data?.createPrenotazione)).toHaveLength(1);
    expect(results.filter((r) => r.errors?.[0]?.extensions?.code === 'TABLE_UNAVAILABLE')).toHaveLength(19);
  });
});

describe('events written while NATS is down', () => {
  let nats: TestServer;
  let stack: Stack;
  let tenant: string;
  let token: string;

  beforeAll(async () => {
    nats = await startNatsServer();
    const { mongoUrl, redisUrl } = serverUrls();
    stack = await startDistributed({
      mongoUrl,
      natsUrl: nats.url,
      redisUrl,
      database: uniqueName('outage'),
      extraEnv: { HEALTH_READINESS_BUS: 'false' },
    });
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => {
    await stack?.close();
    await nats?.stop();
  });

  it('acknowledges writes during the outage and delivers every event once NATS is back', async () => {
    const t = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'Outage', seats: 2 } })).body;
    const events = stack.events(`tenant.${tenant}.restaurant.>`);
    try {
      await nats.kill();
      const statuses = ['occupied', 'payment_pending', 'dirty', 'free', 'reserved'];
      for (const status of statuses) {
        const res = await stack.api('PUT', `/api/tavoli/${t.id}/status`, { token, body: { status } });
        expect(res.status, `PUT ${status} while NATS is down`).toBe(200);
      }
      const booking = await stack.api('POST', '/api/prenotazioni', {
        token,
        body: { covers: 2, bookingDate: '2027-10-01T20:00', customerName: 'Buio', tableIds: [t.id] },
      });
      expect(booking.status).toBe(201);
      await nats.restart();
      const deadline = Date.now() + 30_000;
      const wanted = () => {
        const tableEvents = events.received.filter((e) => e.type === 'tables.status' && e.subject === t.id);
        const created = events.received.filter(
          (e) => e.type === 'bookings.created' && e.subject === booking.body.id,
        );
        return { tableEvents, created };
      };
      while (Date.now() < deadline) {
        const { tableEvents, created } = wanted();
        if (new Set(tableEvents.map((e) => e.id)).size >= statuses.length && created.length >= 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const { tableEvents, created } = wanted();
      const unique = [...new Map(tableEvents.map((e) => [e.id, e])).values()];
      expect(unique.map((e) => (e.data as { status: string }).status)).toEqual(statuses);
      expect(created.length).toBeGreaterThanOrEqual(1);
    } finally {
      events.stop();
    }
  });
});
