import type { PrenotazioneResolvers } from '../generated/resolvers-types.js';
import { effectiveMinutes, endsAt } from '../holds.js';

export const Prenotazione: PrenotazioneResolvers = {
  __resolveReference: (reference, context) => context.prenotazioneById.load(reference.id),
  effectiveDurationMinutes: (p) => effectiveMinutes(p),
  endsAt: (p) => endsAt(p),
  tavoli: (p) => p.tableIds.map((id) => ({ __typename: 'Tavolo', id })),
};
