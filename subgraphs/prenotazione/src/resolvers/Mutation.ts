import type { PrenotazioneContext } from '../context.js';
import type { PrenotazioneInput, PrenotazionePatch } from '../prenotazione-input.js';
import type { BookingState } from '../prenotazione-record.js';

export const Mutation = {
  createPrenotazione: (_: unknown, args: { input: PrenotazioneInput }, context: PrenotazioneContext) =>
    context.prenotazioni.create(args.input),
  importPrenotazione: async (
    _: unknown,
    args: { input: PrenotazioneInput },
    context: PrenotazioneContext,
  ) => {
    const { status, record } = await context.prenotazioni.import(args.input);
    return { status, prenotazione: record };
  },
  updatePrenotazione: (
    _: unknown,
    args: { id: string; input: PrenotazionePatch },
    context: PrenotazioneContext,
  ) => context.prenotazioni.update(args.id, args.input),
  confermaPrenotazione: (_: unknown, args: { id: string }, context: PrenotazioneContext) =>
    context.prenotazioni.changeState(args.id, 'confermata'),
  annullaPrenotazione: (
    _: unknown,
    args: { id: string; motivo?: string | null },
    context: PrenotazioneContext,
  ) => context.prenotazioni.changeState(args.id, 'annullata', args.motivo),
  cambiaStatoPrenotazione: (
    _: unknown,
    args: { id: string; nuovoStato: BookingState },
    context: PrenotazioneContext,
  ) => context.prenotazioni.changeState(args.id, args.nuovoStato),
};
