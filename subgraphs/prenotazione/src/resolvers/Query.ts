import type { PrenotazioneContext } from '../context.js';
import type { BookingState } from '../prenotazione-record.js';
import type { SyncArgs } from '../prenotazione-service.js';

interface FilterArgs {
  filter?: { dal?: string; al?: string; state?: BookingState; tableId?: string; activeOnly?: boolean } | null;
}

export const Query = {
  prenotazioni: (_: unknown, args: FilterArgs, context: PrenotazioneContext) =>
    context.prenotazioni.list(args.filter ?? {}),
  prenotazione: (_: unknown, args: { id: string }, context: PrenotazioneContext) =>
    context.prenotazioni.get(args.id),
  prenotazioneByCodice: (_: unknown, args: { codice: string }, context: PrenotazioneContext) =>
    context.prenotazioni.getByCodice(args.codice),
  prenotazioniGiorno: (_: unknown, args: { data: string }, context: PrenotazioneContext) =>
    context.prenotazioni.day(args.data),
  occupazioniTavoli: (
    _: unknown,
    args: { from: string; to: string; tableIds: string[] },
    context: PrenotazioneContext,
  ) => context.prenotazioni.holdsInWindow(args),
  syncPrenotazioni: (_: unknown, args: SyncArgs, context: PrenotazioneContext) =>
    context.prenotazioni.sync(args),
};
