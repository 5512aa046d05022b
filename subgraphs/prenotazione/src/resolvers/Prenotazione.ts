import type { PrenotazioneContext } from '../context.js';
import { effectiveMinutes, endsAt } from '../holds.js';
import type { PrenotazioneRecord } from '../prenotazione-record.js';

export const Prenotazione = {
  __resolveReference: (reference: { id: string }, context: PrenotazioneContext) =>
    context.prenotazioneById.load(reference.id),
  effectiveDurationMinutes: (p: PrenotazioneRecord) => effectiveMinutes(p),
  endsAt: (p: PrenotazioneRecord) => endsAt(p),
  tavoli: (p: PrenotazioneRecord) => p.tableIds.map((id) => ({ __typename: 'Tavolo', id })),
};
