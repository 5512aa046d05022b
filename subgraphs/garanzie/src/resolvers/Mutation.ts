import { requireAdmin } from '@coperto/auth';
import { ForbiddenError } from '@coperto/errors';
import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  updatePoliticaGaranzie: (_, args, context) => context.policy().update(args.input),
  updateStripeAccount: (_, args, context) => context.policy().updateAccount(args.accountId),
  rimborsaGaranziaBloccata: (_, args, context) => {
    if (context.viewer.grant) throw new ForbiddenError('Refunds are for administrators only');
    requireAdmin(context.viewer, 'give stuck money back');
    return context.guarantees.refundStuck(args.id);
  },
  eventoStripe: async (_, args, context) => {
    const esito = await context.webhooks.receive(args.evento);
    return { esito, outcome: esito };
  },
};
