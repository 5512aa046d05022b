import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mintToken,
  newTenantId,
  serverUrls,
  startNatsServer,
  uniqueName,
  type TestServer,
} from '@coperto/testkit';
import { startDistributed, TABLE_SUBGRAPHS, type Stack } from './support/stack.js';

/**
 * A delete never drops an event acknowledged before it (docs/guarantees.md). Distributed mode
 * with a private NATS that is killed: the events wait in the outbox while the tables are deleted. (Embedded
 * mode's bus is in-process and never down; the store contract suite covers the embedded adapter.)
 */
describe('status events of tables deleted while NATS is down', () => {
  const TABLES = 20;
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
      database: uniqueName('delete-events'),
      // Tables, their status and deleting them only.
      only: TABLE_SUBGRAPHS,
      extraEnv: { HEALTH_READINESS_BUS: 'false' },
    });
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => {
    await stack?.close();
    await nats?.stop();
  });

  it('delivers every acknowledged tables.status event once NATS is back, though each table was deleted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < TABLES; i++) {
      const res = await stack.api('POST', '/api/tavoli', { token, body: { name: `Gone ${i}`, seats: 2 } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const events = stack.events(`tenant.${tenant}.restaurant.tables.status`);
    try {
      await nats.kill();
      for (const id of ids) {
        const res = await stack.api('PUT', `/api/tavoli/${id}/status`, {
          token,
          body: { status: 'occupied' },
        });
        expect(res.status).toBe(200);
        const deleted = await stack.api('DELETE', `/api/tavoli/${id}`, { token });
        expect(deleted.status).toBe(200);
      }
      await nats.restart();
      const subjects = () => new Set(events.received.map((e) => e.subject));
      const deadline = Date.now() + 30_000;
      while (subjects().size < TABLES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect([...subjects()].sort()).toEqual([...ids].sort());
      for (const event of events.received) expect((event.data as { status: string }).status).toBe('occupied');
    } finally {
      events.stop();
    }
  });
});
