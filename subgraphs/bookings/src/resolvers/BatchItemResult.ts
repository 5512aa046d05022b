import type { BatchItemResultResolvers } from '../generated/resolvers-types.js';

export const BatchItemResult: BatchItemResultResolvers = {
  prenotazione: (result) => (result.id ? { __typename: 'Prenotazione', id: result.id } : null),
};
