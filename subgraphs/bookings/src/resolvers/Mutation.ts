import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  uploadBatch: (_, args, context) => context.batches.upload(args.items),
};
