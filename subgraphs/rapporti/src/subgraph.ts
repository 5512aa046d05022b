import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createRapportiContext, type RapportiContext, type RapportiDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { PruningScheduler } from './pruning.js';
import { ensureRapportiIndexes } from './rapporti-store.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';
import { Tavolo } from './resolvers/Tavolo.js';
import { tableEventConsumer } from './table-events.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { Query, Mutation, Tavolo };

export interface RapportiOptions {
  /** Status changes kept per table (default HISTORY_PER_TABLE). */
  historyPerTable?: number;
  /** Tenants one process remembers having scheduled today's pruning for (default PRUNING_TENANTS_KEPT). */
  pruningTenants?: number;
}

/**
 * The rapporti subgraph (tables' histories and reports), ready to be served in-process or over HTTP, with its
 * durable consumer of the restaurant events (started by the hosting process).
 */
export function createRapportiSubgraph(
  deps: RapportiDeps,
  options: RapportiOptions = {},
): Subgraph<RapportiContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  const now = deps.now ?? (() => new Date());
  const pruning = new PruningScheduler({ store: deps.store, now, maxTenants: options.pruningTenants });
  return {
    name: 'rapporti',
    typeDefs,
    schema,
    outboxCollections: [],
    createContext: (request) => createRapportiContext(deps, request),
    init: async () => {
      await ensureRapportiIndexes(deps.store);
      await pruning.init();
    },
    bounded: () => ({ pruning_tenants: pruning.stats() }),
    eventConsumers: [
      tableEventConsumer({ store: deps.store, now, pruning, historyPerTable: options.historyPerTable }),
    ],
    workers: [pruning],
  };
}
export type { RapportiDeps } from './context.js';
export { HISTORY_LIMITS } from './history.js';
export { HISTORY_PER_TABLE } from './rapporti-store.js';
export { MAX_REPORT_DAYS } from './services.js';
