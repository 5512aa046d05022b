import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  canali: (_, __, context) => context.canali.list(),
  canaleCorrente: (_, __, context) => context.canali.current(),
};
