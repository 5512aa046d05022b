import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createSalaContext, type SalaContext, type SalaDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';
import { Sala } from './resolvers/Sala.js';
import { ensureSaleIndexes } from './sala-store.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

/** The sala subgraph (rooms), ready to be served in-process or over HTTP. */
const resolvers: Resolvers = { Query, Mutation, Sala };

export function createSalaSubgraph(deps: SalaDeps): Subgraph<SalaContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  return {
    name: 'sala',
    typeDefs,
    schema,
    outboxCollections: [],
    createContext: (request) => createSalaContext(deps, request),
    init: () => ensureSaleIndexes(deps.store),
  };
}
export type { SalaDeps } from './context.js';
