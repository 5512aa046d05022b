import type { BookingsContext } from '../context.js';

export const Mutation = {
  uploadBatch: (_: unknown, args: { items: unknown }, context: BookingsContext) =>
    context.batches.upload(args.items),
};
