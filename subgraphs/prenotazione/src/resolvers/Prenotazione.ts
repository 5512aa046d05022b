import type { PrenotazioneResolvers } from '../generated/resolvers-types.js';
import { effectiveMinutes, endsAt } from '../seating/holds.js';
import { assegnazioneOf, linguaOf, origineOf } from '../bookings/prenotazione-record.js';

export const Prenotazione: PrenotazioneResolvers = {
  __resolveReference: (reference, context) =>
    context.rights.maySee(reference.id) ? context.prenotazioneById.load(reference.id) : null,
  effectiveDurationMinutes: (p) => effectiveMinutes(p),
  endsAt: (p) => endsAt(p),
  combinationId: (p) => p.combinationId ?? null,
  assegnazione: (p) => assegnazioneOf(p),
  assignment: (p) => assegnazioneOf(p),
  tavoli: (p) => p.tableIds.map((id) => ({ __typename: 'Tavolo', id })),
  customerEmail: (p) => p.customerEmail ?? null,
  lingua: (p) => linguaOf(p),
  language: (p) => linguaOf(p),
  origine: (p) => origineOf(p),
  source: (p) => origineOf(p),
  canale: (p) => p.canale ?? null,
  channel: (p) => p.canale ?? null,
  gestione: (p, _, context) => context.guestTokens.forChannelBooking(p),
  manage: (p, _, context) => context.guestTokens.forChannelBooking(p),
};
