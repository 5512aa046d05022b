import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import { createTokenVerifier } from '@coperto/auth';
import { createMemoryBus, createOutboxRelay, type EventBus, type OutboxRelay } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import {
  createLogger,
  hostSubgraphsInProcess,
  startEventConsumers,
  type InProcessSubgraphs,
  type RunningConsumers,
  type TypedDocumentNode,
} from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { createTavoloSubgraph } from '@coperto/subgraph-tavolo';
import { mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { createOspitiSubgraph } from '../../src/subgraph.js';

/**
 * The embedded wiring of the gateway, without the gateway: the subgraphs ospiti needs, hosted in-process on a
 * real embedded store, with the outbox relay, the in-process bus and ospiti's consumer started before the relay.
 */
export interface Hosted {
  store: DocumentStore;
  bus: EventBus;
  hosted: InProcessSubgraphs;
  /** Runs a GraphQL document on one subgraph as the tenant's staff (or admin) and returns its data. */
  run<T = Record<string, any>>(
    subgraph: string,
    query: string,
    variables: Record<string, unknown>,
    token: string,
  ): Promise<T>;
  close(): Promise<void>;
}

export async function hostOspiti(): Promise<Hosted> {
  const dir = mkdtempSync(join(tmpdir(), 'ospiti-'));
  const store = await openEmbeddedStore({ directory: dir, fsync: false });
  const bus = createMemoryBus();
  let relay: OutboxRelay | undefined;
  const hosted = await hostSubgraphsInProcess({
    factories: {
      tavolo: createTavoloSubgraph,
      sala: createSalaSubgraph,
      prenotazione: createPrenotazioneSubgraph,
      capacity: createCapacitySubgraph,
      ospiti: createOspitiSubgraph,
    },
    deps: {
      store,
      cache: createMemoryCache(),
      verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
      timeZone: 'Europe/Rome',
      onEventsWritten: () => relay?.kick(),
    },
  });
  const consumers: RunningConsumers = await startEventConsumers(
    hosted.subgraphs,
    bus,
    createLogger({ name: 'ospiti-test', level: 'error' }),
  );
  relay = createOutboxRelay({
    source: store.outbox(hosted.subgraphs.flatMap((s) => s.outboxCollections)),
    bus,
    pollIntervalMs: 20,
  });
  relay.start();
  return {
    store,
    bus,
    hosted,
    run: (subgraph, query, variables, token) =>
      hosted.client.request(
        subgraph,
        parse(query) as TypedDocumentNode<any, Record<string, unknown>>,
        variables,
        token,
      ),
    async close() {
      await relay?.stop();
      await consumers.stop();
      await bus.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh tenant's staff and administrator bearer tokens. */
export async function newTenant(): Promise<{ tenantId: string; staff: string; admin: string }> {
  const tenantId = newTenantId();
  return {
    tenantId,
    staff: `Bearer ${await mintToken({ tenantId })}`,
    admin: `Bearer ${await mintToken({ tenantId, admin: true })}`,
  };
}
