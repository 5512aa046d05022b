import type { PrenotazioneContext } from '../context.js';

/** Tables belong to the tavolo subgraph; prenotazione adds their bookings. */
export const Tavolo = {
  __resolveReference: (reference: { id: string }) => reference,
  prenotazioni: (tavolo: { id: string }, args: { data?: string | null }, context: PrenotazioneContext) =>
    context.prenotazioni.forTable(tavolo.id, args.data),
};
