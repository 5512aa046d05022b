import type { BookingsContext } from '../context.js';

export const Query = {
  batchUpload: (_: unknown, args: { id: string }, context: BookingsContext) => context.batches.get(args.id),
};
