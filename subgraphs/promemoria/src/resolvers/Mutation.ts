import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  updateImpostazioniPromemoria: (_, { input }, context) => context.promemoria.updateSettings(input),
};
