import type { SalaResolvers } from '../generated/resolvers-types.js';

/** Rooms belong to the sala subgraph; tavolo adds their tables. */
export const Sala: SalaResolvers = {
  __resolveReference: (reference) => reference,
  tavoli: (sala, _, context) => context.tavoliBySala.load(sala.id),
};
