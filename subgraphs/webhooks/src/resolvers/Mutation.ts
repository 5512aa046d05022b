import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  createWebhook: (_root, { input }, { webhooks }) => webhooks().create(input),
  updateWebhook: (_root, { id, input }, { webhooks }) => webhooks().update(id, input),
  deleteWebhook: (_root, { id }, { webhooks }) => webhooks().remove(id),
  ruotaSegretoWebhook: (_root, { id }, { webhooks }) => webhooks().rotate(id),
  reinviaConsegnaWebhook: (_root, { id, consegnaId }, { webhooks }) => webhooks().resend(id, consegnaId),
};
