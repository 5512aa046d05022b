import type { OspiteResolvers } from '../generated/resolvers-types.js';
import { bookingLinks } from '../privacy.js';

/** The guest's bookings as references: prenotazione resolves the rest of each. */
const bookings: NonNullable<OspiteResolvers['prenotazioni']> = async (guest, _, context) =>
  bookingLinks(await context.store.linksOf(guest.id)).map((link) => ({
    __typename: 'Prenotazione' as const,
    id: link.riferimento,
  }));

export const Ospite: OspiteResolvers = {
  __resolveReference: (reference, context) => context.guestById.load(reference.id),
  name: (g) => g.nome,
  phone: (g) => g.telefono,
  language: (g) => g.lingua,
  tags: (g) => g.tag,
  allergies: (g) => g.allergie,
  notes: (g) => g.note,
  marketingConsent: (g) => g.consensoMarketing,
  visits: (g) => g.visite,
  covers: (g) => g.coperti,
  noShows: (g) => g.noShow,
  lateCancellations: (g) => g.annullamentiTardivi,
  firstVisit: (g) => g.primaVisita,
  lastVisit: (g) => g.ultimaVisita,
  totalSpend: (g) => g.spesaTotale,
  erased: (g) => g.cancellato,
  erasedAt: (g) => g.cancellatoAt,
  prenotazioni: bookings,
  bookings,
};
