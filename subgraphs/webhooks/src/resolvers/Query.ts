import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  webhooks: (_root, _args, { webhooks }) => webhooks().list(),
  webhook: (_root, { id }, { webhooks }) => webhooks().get(id),
  consegneWebhook: (_root, { id, stato, limite }, { webhooks }) =>
    webhooks().deliveries(id, { stato: stato ?? null, limite: limite ?? null }),
};
