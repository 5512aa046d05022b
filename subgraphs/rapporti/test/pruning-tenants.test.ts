// The tenants a rapporti process remembers having scheduled today's pruning for (docs/reports.md, "Bookings kept";
// docs/scaling.md): bounded, the first remembered going first, forgotten when the day changes, and reported by the
// subgraph's bounded state (`bounded_state_*{structure="rapporti_pruning_tenants"}`). Embedded store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, trustedTenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import type { SubgraphClient } from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { PRUNING_TENANTS_KEPT, PruningScheduler } from '../src/pruning.js';
import { createRapportiSubgraph } from '../src/subgraph.js';

describe('rapporti: the tenants scheduled today (bounded state)', () => {
  let dir: string;
  let store: DocumentStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rapporti-pruning-tenants-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let clock = new Date('2027-03-10T18:00:00Z');
  const subgraph = (pruningTenants?: number) =>
    createRapportiSubgraph(
      {
        store,
        cache: createMemoryCache(),
        verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
        subgraphs: {} as SubgraphClient,
        timeZone: 'Europe/Rome',
        onEventsWritten: () => {},
        now: () => clock,
      },
      { pruningTenants },
    );
  /** A booking event of `tenant`, as prenotazione publishes it. */
  const booking = (tenant: string) => {
    const { message, event } = buildEvent({
      tenantId: trustedTenantId(tenant),
      type: 'bookings.created',
      source: 'coperto/prenotazione',
      subject: 'b1',
      data: {
        id: 'b1',
        covers: 2,
        startsAt: clock.toISOString(),
        tableIds: [],
        state: 'confermata',
        externalId: null,
        origine: 'staff',
        updatedAt: clock.toISOString(),
      },
    });
    return [event, message.subject] as const;
  };

  it('reports its bound by default', () => {
    expect(subgraph().bounded?.()).toEqual({
      pruning_tenants: { entries: 0, capacity: PRUNING_TENANTS_KEPT, evictions: 0 },
    });
  });

  it('keeps at most its bound, the first remembered going first, and forgets them when the day changes', async () => {
    const rapporti = subgraph(3);
    await rapporti.init();
    const consumer = rapporti.eventConsumers![0]!;
    const tenants = Array.from({ length: 5 }, () => newTenantId());
    for (const tenant of tenants) await consumer.handle(...booking(tenant));
    // Another event of a tenant remembered: nothing new.
    await consumer.handle(...booking(tenants[4]!));
    expect(rapporti.bounded!()).toEqual({ pruning_tenants: { entries: 3, capacity: 3, evictions: 2 } });

    // The first tenant was forgotten: its next event schedules again, the same job (one per tenant and day).
    await consumer.handle(...booking(tenants[0]!));
    expect(rapporti.bounded!().pruning_tenants).toEqual({ entries: 3, capacity: 3, evictions: 3 });
    const jobs = new PruningScheduler({ store, now: () => clock }).scheduler;
    for (const tenant of tenants)
      expect((await jobs.list(trustedTenantId(tenant), 'potatura/')).map((j) => j.key)).toEqual([
        'potatura/2027-03-10',
      ]);

    // The next day starts afresh: yesterday's three go.
    clock = new Date('2027-03-11T09:00:00Z');
    await consumer.handle(...booking(tenants[1]!));
    expect(rapporti.bounded!().pruning_tenants).toEqual({ entries: 1, capacity: 3, evictions: 6 });
  });
});
