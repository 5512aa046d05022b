import type { PrenotazioneResolvers } from '../generated/resolvers-types.js';

// Bookings are prenotazione's; promemoria adds their reminders, planned by its consumer from their events.
export const Prenotazione: PrenotazioneResolvers = {
  __resolveReference: (reference) => reference,
  promemoria: (booking, _, context) => context.remindersOf.load(booking.id),
  reminders: (booking, _, context) => context.remindersOf.load(booking.id),
};
