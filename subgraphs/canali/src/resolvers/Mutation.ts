import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createCanale: (_, args, context) => context.canali.create(args.input),
  deleteCanale: (_, args, context) => context.canali.delete(args.id),
  linkGoogle: (_, args, context) => context.google.link(args.input.merchantId),
  claimGoogleBooking: (_, args, context) => context.google.claim(args.token, args.userId ?? null),
  completeGoogleBooking: (_, args, context) =>
    context.google.complete({
      token: args.token,
      answer: args.answer,
      bookingId: args.bookingId ?? null,
      userId: args.userId ?? null,
      merchantId: args.merchantId,
    }),
  releaseGoogleBooking: (_, args, context) => context.google.release(args.token),
};
