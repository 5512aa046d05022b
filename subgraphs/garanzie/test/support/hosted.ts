import { parse } from 'graphql';
import {
  combineTokenVerifiers,
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
} from '@coperto/auth';
import { createMemoryBus, createOutboxRelay, type EventBus, type OutboxRelay } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import {
  createLogger,
  hostSubgraphsInProcess,
  createHttpSubgraphClient,
  startEventConsumers,
  type InProcessSubgraphs,
  type SubgraphClient,
  type RunningConsumers,
  type TypedDocumentNode,
} from '@coperto/server-kit';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { createCapacitySubgraph } from '@coperto/subgraph-capacity';
import { createPrenotazioneSubgraph } from '@coperto/subgraph-prenotazione';
import { createSalaSubgraph } from '@coperto/subgraph-sala';
import { createTavoloSubgraph } from '@coperto/subgraph-tavolo';
import {
  mintToken,
  newTenantId,
  serverUrls,
  stripeMockUrl,
  TEST_JWT_SECRET,
  TEST_SERVICE_TOKEN_SECRET,
  uniqueName,
} from '@coperto/testkit';
import { createGaranzieSubgraph } from '../../src/subgraph.js';

/** The service-token issuer of the hosted subgraphs: guest and payments tokens, as the gateway would mint them. */
export const serviceTokens = createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET });

/**
 * The gateway's embedded wiring without the gateway, on the real servers: the subgraphs a booking needs and
 * garanzie, hosted in-process on a MongoDB-protocol store (mongo-java-server), with the outbox relay, the
 * in-process bus and garanzie's consumer; Stripe is stripe-mock (or no key at all, `stripe: false`).
 */
export interface Hosted {
  store: DocumentStore;
  bus: EventBus;
  hosted: InProcessSubgraphs;
  run<T = Record<string, any>>(
    subgraph: string,
    query: string,
    variables: Record<string, unknown>,
    token: string,
  ): Promise<T>;
  close(): Promise<void>;
}

/** The publishable key the hosted garanzie hands with a clientSecret. */
export const PUBLISHABLE_KEY = 'pk_test_coperto';

/** While `down`, garanzie's calls to prenotazione go over HTTP to a port nothing listens on (9, discard). */
export interface Outage {
  down: boolean;
}

function withOutage(client: SubgraphClient, outage: Outage): SubgraphClient {
  const unreachable = createHttpSubgraphClient({ prenotazione: 'http://127.0.0.1:9/graphql' });
  return {
    request: (name, document, variables, authorization) =>
      (outage.down && name === 'prenotazione' ? unreachable : client).request(
        name,
        document,
        variables,
        authorization,
      ),
  };
}

export async function hostGaranzie(options: { stripe?: boolean; outage?: Outage } = {}): Promise<Hosted> {
  const database = uniqueName('garanzie');
  const store = await connectMongoStore({ url: serverUrls().mongoUrl, database });
  const bus = createMemoryBus();
  let relay: OutboxRelay | undefined;
  const stripe =
    options.stripe === false
      ? { secretKey: null, apiBase: null, publishableKey: null, duePollMs: null }
      : {
          secretKey: 'sk_test_coperto',
          apiBase: new URL(stripeMockUrl()),
          publishableKey: PUBLISHABLE_KEY,
          duePollMs: null,
        };
  const hosted = await hostSubgraphsInProcess({
    factories: {
      tavolo: createTavoloSubgraph,
      sala: createSalaSubgraph,
      prenotazione: createPrenotazioneSubgraph,
      capacity: createCapacitySubgraph,
      garanzie: (deps) =>
        createGaranzieSubgraph(
          options.outage ? { ...deps, subgraphs: withOutage(deps.subgraphs, options.outage) } : deps,
          stripe,
        ),
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
    createLogger({ name: 'garanzie-test', level: 'error' }),
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
