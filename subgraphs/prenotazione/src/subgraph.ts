import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { createPrenotazioneContext, type PrenotazioneContext, type PrenotazioneDeps } from './context.js';
import { ensureOpzioniIndexes } from './options/opzione-store.js';
import { ensurePrenotazioniIndexes, PRENOTAZIONI_COLLECTION } from './bookings/prenotazione-store.js';
import { SeatingConfigCache, seatingConfigFollower } from './seating/seating-sources.js';
import { createKeptArrivals } from './availability/day-arrivals.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { Mutation } from './resolvers/Mutation.js';
import { Opzione } from './resolvers/Opzione.js';
import { Prenotazione } from './resolvers/Prenotazione.js';
import { Query } from './resolvers/Query.js';
import { Tavolo } from './resolvers/Tavolo.js';
import { WaitlistMutation, WaitlistQuery } from './resolvers/Waitlist.js';
import { ensureWaitlistIndexes, WAITLIST_COLLECTION } from './waitlist/waitlist-store.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = {
  Query: { ...Query, ...WaitlistQuery },
  Mutation: { ...Mutation, ...WaitlistMutation },
  Prenotazione,
  Tavolo,
  Opzione,
};

/** The prenotazione subgraph (bookings, their state flow, sync), ready to be served in-process or over HTTP. */
export function createPrenotazioneSubgraph(deps: PrenotazioneDeps): Subgraph<PrenotazioneContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  const seatingConfig = new SeatingConfigCache(deps.subgraphs, deps.now);
  const arrivals = createKeptArrivals();
  return {
    name: 'prenotazione',
    typeDefs,
    schema,
    outboxCollections: [PRENOTAZIONI_COLLECTION, WAITLIST_COLLECTION],
    createContext: (request) => createPrenotazioneContext(deps, request, { seatingConfig, arrivals }),
    bounded: () => ({ seating_config: seatingConfig.stats(), day_arrivals: arrivals.stats() }),
    eventFollowers: [seatingConfigFollower(seatingConfig)],
    init: async () => {
      await ensurePrenotazioniIndexes(deps.store);
      await ensureOpzioniIndexes(deps.store);
      await ensureWaitlistIndexes(deps.store);
    },
  };
}

export type { PrenotazioneDeps } from './context.js';
export { MAX_DURATION_MINUTES, MAX_TABLES_PER_BOOKING } from './bookings/prenotazione-input.js';
export { SYNC_MAX_LIMIT } from './bookings/sync.js';
export { OPTION_TTL_RANGE } from './options/opzione-record.js';
export {
  LIMIT_RANGE as DISPONIBILITA_LIMIT_RANGE,
  MAX_COVERS as DISPONIBILITA_MAX_COVERS,
} from './availability/availability-input.js';
