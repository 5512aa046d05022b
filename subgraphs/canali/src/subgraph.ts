import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { ensureCanaliIndexes } from './canale-store.js';
import { createCanaliContext, type CanaliContext, type CanaliDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { ensureGoogleIndexes } from './google/google-store.js';
import { Canale, CanaleCreato } from './resolvers/Canale.js';
import { GooglePrenotazione, IntegrazioneGoogle } from './resolvers/Google.js';
import { Mutation } from './resolvers/Mutation.js';
import { Query } from './resolvers/Query.js';
import { storeChannelDirectory } from './store-directory.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = {
  Query,
  Mutation,
  Canale,
  CanaleCreato,
  IntegrazioneGoogle,
  GooglePrenotazione,
};

/** The canali subgraph (booking channels and their keys), ready to be served in-process or over HTTP. */
export function createCanaliSubgraph(deps: CanaliDeps): Subgraph<CanaliContext> {
  const { serviceTokens } = deps;
  if (!serviceTokens) throw new Error('canali issues channel keys: its deps need serviceTokens');
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  return {
    name: 'canali',
    typeDefs,
    schema,
    outboxCollections: [],
    createContext: (request) => createCanaliContext({ ...deps, serviceTokens }, request),
    init: async () => {
      await ensureCanaliIndexes(deps.store);
      await ensureGoogleIndexes(deps.store);
    },
    channelDirectory: storeChannelDirectory(deps.store),
  };
}
export type { CanaliDeps } from './context.js';
export { CANALE_LIMITS } from './canale-record.js';
export { GOOGLE_LIMITS } from './google/google-records.js';
export { MERCHANT_ID_PATTERN } from './google/google-input.js';
