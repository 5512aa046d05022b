import type { MutationResolvers, QueryResolvers } from '../generated/resolvers-types.js';

/** The waitlist's queries (lista_attesa): today's queue and one entry. */
export const WaitlistQuery: Pick<QueryResolvers, 'listaAttesa' | 'voceAttesa'> = {
  listaAttesa: (_, __, context) => context.waitlist.list(),
  voceAttesa: (_, args, context) => context.waitlist.get(args.id),
};

/** The waitlist's state changes. */
export const WaitlistMutation: Pick<
  MutationResolvers,
  'aggiungiAttesa' | 'avvisaAttesa' | 'siediAttesa' | 'annullaAttesa'
> = {
  aggiungiAttesa: (_, args, context) => context.waitlist.add(args.input),
  avvisaAttesa: (_, args, context) => context.waitlist.notify(args.id),
  siediAttesa: (_, args, context) => context.waitlist.seat(args.id, args.input),
  annullaAttesa: (_, args, context) => context.waitlist.cancel(args.id, args.input),
};
