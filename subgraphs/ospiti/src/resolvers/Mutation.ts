import type { MutationResolvers } from '../generated/resolvers-types.js';
import { mergeGuests } from '../merge.js';

export const Mutation: MutationResolvers = {
  updateOspite: (_, args, context) => context.ospiti.update(args.id, args.input),
  unisciOspiti: (_, args, context) => mergeGuests(context.store, context.now, args.id, args.ospiteId),
  oblioOspite: (_, args, context) => context.privacy.erase(args.id),
  updateImpostazioniOspiti: (_, args, context) => context.ospiti.updateSettings(args.input),
};
