import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createBookingsContext, type BookingsContext, type BookingsDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { JSONScalar } from './json-scalar.js';
import { BatchItemResult } from './resolvers/BatchItemResult.js';
import { BatchUpload } from './resolvers/BatchUpload.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { JSON: JSONScalar, Query, Mutation, BatchUpload, BatchItemResult };

/** The bookings subgraph (legacy batch upload), ready to be served in-process or over HTTP. */
export function createBookingsSubgraph(deps: BookingsDeps): Subgraph<BookingsContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  return {
    name: 'bookings',
    typeDefs,
    schema,
    outboxCollections: [],
    createContext: (request) => createBookingsContext(deps, request),
    // Batch records are read by id only: the store's primary key is the one index they need.
    init: async () => {},
  };
}

export type { BookingsDeps } from './context.js';
export { MAX_BATCH_ITEMS } from './batch-record.js';
