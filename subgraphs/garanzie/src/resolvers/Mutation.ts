import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  updatePoliticaGaranzie: (_, args, context) => context.policy().update(args.input),
  updateStripeAccount: (_, args, context) => context.policy().updateAccount(args.accountId),
  eventoStripe: async (_, args, context) => {
    const esito = await context.webhooks.receive(args.evento);
    return { esito, outcome: esito };
  },
};
