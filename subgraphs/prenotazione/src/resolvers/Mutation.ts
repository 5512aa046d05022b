import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createPrenotazione: (_, args, context) => context.prenotazioni.create(args.input),
  importPrenotazione: async (_, args, context) => {
    const { status, record } = await context.prenotazioni.import(args.input);
    return { status, prenotazione: record };
  },
  updatePrenotazione: (_, args, context) => context.prenotazioni.update(args.id, args.input),
  confermaPrenotazione: (_, args, context) => context.prenotazioni.changeState(args.id, 'confermata'),
  annullaPrenotazione: (_, args, context) =>
    context.prenotazioni.changeState(args.id, 'annullata', args.motivo),
  cambiaStatoPrenotazione: (_, args, context) => context.prenotazioni.changeState(args.id, args.nuovoStato),
  cancellaDatiOspite: (_, args, context) => context.guestData.erase(args.prenotazioneIds, args.vociAttesaIds),
  createOpzione: (_, args, context) => context.opzioni.create(args.input),
  releaseOpzione: (_, args, context) => context.opzioni.release(args.id),
};
