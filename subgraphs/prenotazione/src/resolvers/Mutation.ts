import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createPrenotazione: (_, args, context) => {
    context.rights.checkBooking(args.input);
    return context.prenotazioni.create(args.input);
  },
  importPrenotazione: async (_, args, context) => {
    const { status, record } = await context.prenotazioni.import(args.input);
    return { status, prenotazione: record };
  },
  updatePrenotazione: (_, args, context) =>
    context.prenotazioni.update(args.id, context.rights.patchFor(args.id, args.input)),
  confermaPrenotazione: (_, args, context) => {
    context.rights.requireVisible(args.id);
    return context.prenotazioni.changeState(args.id, 'confermata');
  },
  annullaPrenotazione: (_, args, context) => {
    context.rights.checkStateChange(args.id, 'annullata');
    return context.prenotazioni.changeState(args.id, 'annullata', args.motivo);
  },
  cambiaStatoPrenotazione: (_, args, context) => {
    context.rights.checkStateChange(args.id, args.nuovoStato);
    return context.prenotazioni.changeState(args.id, args.nuovoStato);
  },
  gestionePrenotazione: (_, args, context) => {
    context.rights.requireStaff('ask for a guest token');
    return context.guestTokens.forStaff(args.id);
  },
  cancellaDatiOspite: (_, args, context) => context.guestData.erase(args.prenotazioneIds, args.vociAttesaIds),
  createOpzione: (_, args, context) => {
    context.rights.checkOption(args.input);
    return context.opzioni.create(args.input);
  },
  releaseOpzione: (_, args, context) => context.opzioni.release(args.id),
};
