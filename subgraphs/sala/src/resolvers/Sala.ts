import type { SalaResolvers } from '../generated/resolvers-types.js';
import { salaName } from '../sala-record.js';

export const Sala: SalaResolvers = {
  __resolveReference: (reference, context) => context.salaById.load(reference.id),
  name: (sala) => salaName(sala),
};
