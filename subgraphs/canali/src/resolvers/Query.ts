import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  canali: (_, __, context) => context.canali.list(),
  canaleCorrente: (_, __, context) => context.canali.current(),
  integrazioneGoogle: (_, __, context) => context.google.current(),
  googleMerchant: (_, args, context) => context.google.merchant(args.merchantId),
  googleUserMerchants: (_, args, context) => context.google.userMerchants(args.userId),
  googleBooking: (_, args, context) => context.google.booking(args.bookingId),
  googleBookings: (_, args, context) => context.google.bookings(args.userId),
};
