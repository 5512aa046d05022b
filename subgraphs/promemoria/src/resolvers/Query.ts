import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  impostazioniPromemoria: (_, __, context) => context.promemoria.settings(),
};
