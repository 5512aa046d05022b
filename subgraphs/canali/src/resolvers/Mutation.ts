import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createCanale: (_, args, context) => context.canali.create(args.input),
  deleteCanale: (_, args, context) => context.canali.delete(args.id),
};
