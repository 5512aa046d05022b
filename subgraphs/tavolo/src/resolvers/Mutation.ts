import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createTavolo: (_, args, context) => context.tavoli.create(args.input),
  updateTavolo: (_, args, context) => context.tavoli.update(args.id, args.input),
  deleteTavolo: (_, args, context) => context.tavoli.delete(args.id),
  setTavoloStatus: (_, args, context) => context.tavoli.setStatus(args.id, args.input),
  lockTavolo: (_, args, context) => context.tavoli.lock(args.id, args.input),
  unlockTavolo: (_, args, context) => context.tavoli.unlock(args.id, args.input.deviceId),
  forceUnlockTavolo: (_, args, context) => context.tavoli.forceUnlock(args.id),
  createCombinazione: (_, args, context) => context.combinazioni.create(args.input),
  updateCombinazione: (_, args, context) => context.combinazioni.update(args.id, args.input),
  deleteCombinazione: (_, args, context) => context.combinazioni.delete(args.id),
};
