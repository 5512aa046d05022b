import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import {
  combineTokenVerifiers,
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
} from '@coperto/auth';
import {
  createMemoryBus,
  createOutboxRelay,
  natsSubject,
  type CloudEvent,
  type EventBus,
  type OutboxRelay,
} from '@coperto/bus';
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
import { mintToken, newTenantId, TEST_JWT_SECRET, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { createOspitiSubgraph } from '../../src/subgraph.js';

/**
 * The embedded wiring of the gateway, without the gateway: the subgraphs ospiti needs, hosted in-process on a
 * real embedded store, with the outbox relay, the in-process bus and ospiti's consumer started before the relay.
 */
export interface Hosted {
  store: DocumentStore;
  bus: EventBus;
  hosted: InProcessSubgraphs;
  /** Hands an event to ospiti's consumer as the bus would (a late or repeated delivery). */
  deliver(event: CloudEvent, tenantId: string): Promise<void>;
  /** The events published on `subject` from now on, as they come (`stop` ends the subscription). */
  collect(subject: string): { received: CloudEvent[]; stop(): void };
  /** Stops ospiti's consumer: events published from then on are not seen (until `deliver`). */
  stopConsumers(): Promise<void>;
  /** Runs a GraphQL document on one subgraph as the tenant's staff (or admin) and returns its data. */
  run<T = Record<string, any>>(
    subgraph: string,
    query: string,
    variables: Record<string, unknown>,
    token: string,
  ): Promise<T>;
  close(): Promise<void>;
}

/** The service-token issuer of the hosted subgraphs (ospiti mints its `privacy` tokens with it). */
export const serviceTokens = createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET });

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
      verifier: combineTokenVerifiers(
        {
          staff: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
          service: createServiceTokenVerifier({ secret: TEST_SERVICE_TOKEN_SECRET }),
        },
        { maxTokenLength: 8192 },
      ),
      serviceTokens,
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
    deliver: (event, tenantId) =>
      hosted.subgraphs
        .find((s) => s.name === 'ospiti')!
        .eventConsumers![0]!.handle(event, natsSubject(tenantId, event.type)),
    collect(subject) {
      const subscription = bus.subscribe(subject);
      const received: CloudEvent[] = [];
      void (async () => {
        for await (const event of subscription) received.push(event);
      })();
      return { received, stop: () => subscription.unsubscribe() };
    },
    stopConsumers: () => consumers.stop(),
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
