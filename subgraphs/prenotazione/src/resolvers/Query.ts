import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  prenotazioni: (_, args, context) => context.prenotazioni.list(args.filter ?? {}),
  prenotazione: (_, args, context) =>
    context.rights.maySee(args.id) ? context.prenotazioni.get(args.id) : null,
  prenotazioneByCodice: (_, args, context) => context.prenotazioni.getByCodice(args.codice),
  prenotazioniGiorno: (_, args, context) => context.prenotazioni.day(args.data),
  arriviGiorno: (_, args, context) => context.arrivals.ofDay(args.data),
  occupazioniTavoli: (_, args, context) => context.agenda.holdsInWindow(args),
  syncPrenotazioni: (_, args, context) => context.sync.page(args),
  opzioni: (_, __, context) => context.opzioni.list(),
  disponibilita: (_, args, context) => context.availability.day(args),
  disponibilitaPerCoperti: (_, args, context) => context.availability.days(args),
};
