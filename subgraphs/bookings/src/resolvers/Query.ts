import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  batchUpload: (_, args, context) => context.batches.get(args.id),
};
