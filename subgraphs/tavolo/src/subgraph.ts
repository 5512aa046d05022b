import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createTavoloContext, type TavoloContext, type TavoloDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';
import { Sala } from './resolvers/Sala.js';
import { Tavolo } from './resolvers/Tavolo.js';
import { Combinazione } from './resolvers/Combinazione.js';
import { ensureCombinazioniIndexes } from './combinations/combinazione-store.js';
import { ensureTavoliIndexes, TAVOLI_COLLECTION } from './tables/tavolo-store.js';
import { TenantTableDirectories } from './availability/tenant-table-directories.js';
import { TenantTurnTimes } from './availability/turn-time-config.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { Query, Mutation, Tavolo, Sala, Combinazione };

/** The tavolo subgraph (tables, locks, availability), ready to be served in-process or over HTTP. */
export function createTavoloSubgraph(deps: TavoloDeps): Subgraph<TavoloContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  const shared = {
    turnTimes: new TenantTurnTimes(deps.subgraphs, deps.now),
    tableDirectories: new TenantTableDirectories(),
  };
  return {
    name: 'tavolo',
    typeDefs,
    schema,
    outboxCollections: [TAVOLI_COLLECTION],
    createContext: (request) => createTavoloContext(deps, request, shared),
    bounded: () => ({
      table_directories: shared.tableDirectories.stats(),
      turn_times: shared.turnTimes.stats(),
    }),
    init: async () => {
      await ensureTavoliIndexes(deps.store);
      await ensureCombinazioniIndexes(deps.store);
    },
  };
}

export type { TavoloDeps } from './context.js';
export { DURATA_MEDIA_PASTO_MINUTES } from './availability/availability-service.js';
export { LOCK_TTL_SECONDS } from './tables/tavolo-record.js';
export { MAX_TABLE_SIDE } from './tables/geometry.js';
export { COMBINAZIONE_COVERS, COMBINAZIONE_TABLES } from './combinations/combinazione-record.js';
