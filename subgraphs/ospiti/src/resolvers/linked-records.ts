import type { PrenotazioneResolvers, VoceAttesaResolvers } from '../generated/resolvers-types.js';
import { linkId } from '../ospite-record.js';

// Bookings and waitlist entries are prenotazione's; ospiti adds their guest, found through the link its
// consumer made from their events.
export const Prenotazione: PrenotazioneResolvers = {
  __resolveReference: (reference) => reference,
  ospite: (booking, _, context) => context.guestOfLink.load(linkId('prenotazione', booking.id)),
  guest: (booking, _, context) => context.guestOfLink.load(linkId('prenotazione', booking.id)),
};

export const VoceAttesa: VoceAttesaResolvers = {
  __resolveReference: (reference) => reference,
  ospite: (entry, _, context) => context.guestOfLink.load(linkId('attesa', entry.id)),
  guest: (entry, _, context) => context.guestOfLink.load(linkId('attesa', entry.id)),
};
