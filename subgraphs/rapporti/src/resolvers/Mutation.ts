import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  applicaTurniSuggeriti: (_, args, context) => context.reports.apply(args),
};
