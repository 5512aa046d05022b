import { buildSubgraphSchema } from '@apollo/subgraph';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createOspitiContext, type OspitiContext, type OspitiDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { guestEventConsumer } from './guest-events.js';
import { ensureOspitiIndexes, OSPITI_COLLECTION } from './ospiti-store.js';
import { RetentionScheduler } from './retention.js';
import { CoppiaOspiti } from './resolvers/CoppiaOspiti.js';
import { ImpostazioniOspiti } from './resolvers/ImpostazioniOspiti.js';
import { Mutation } from './resolvers/Mutation.js';
import { Ospite } from './resolvers/Ospite.js';
import { Prenotazione, VoceAttesa } from './resolvers/linked-records.js';
import { Query } from './resolvers/Query.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = {
  Query,
  Mutation,
  Ospite,
  Prenotazione,
  VoceAttesa,
  CoppiaOspiti,
  ImpostazioniOspiti,
};

/**
 * The ospiti subgraph (guest profiles), ready to be served in-process or over HTTP, with its durable consumer
 * of the booking and waitlist events (started by the hosting process).
 */
export function createOspitiSubgraph(deps: OspitiDeps): Subgraph<OspitiContext> {
  const schema = buildSubgraphSchema([{ typeDefs, resolvers }]);
  const { serviceTokens } = deps;
  if (!serviceTokens) throw new Error('ospiti needs the service-token issuer (SERVICE_TOKEN_SECRET)');
  const now = deps.now ?? (() => new Date());
  const retention = new RetentionScheduler({
    store: deps.store,
    subgraphs: deps.subgraphs,
    serviceTokens,
    now,
    onEventsWritten: deps.onEventsWritten,
  });
  return {
    name: 'ospiti',
    typeDefs,
    schema,
    outboxCollections: [OSPITI_COLLECTION],
    createContext: (request) => createOspitiContext(deps, retention, request),
    init: async () => {
      await ensureOspitiIndexes(deps.store);
      await retention.init();
    },
    eventConsumers: [
      guestEventConsumer({
        store: deps.store,
        now,
        subgraphs: deps.subgraphs,
        serviceTokens,
        onEventsWritten: deps.onEventsWritten,
      }),
    ],
    workers: [retention],
  };
}
export type { OspitiDeps } from './context.js';
export { GUEST_LIMITS, LANGUAGE_PATTERN } from './guest-limits.js';
export { guestChangeEvents } from './guest-change-events.js';
