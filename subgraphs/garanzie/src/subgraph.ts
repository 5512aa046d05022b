import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { loadSchemaFile, type Subgraph } from '@coperto/server-kit';
import { bookingEventConsumer } from './booking-events.js';
import { createGaranzieContext, type GaranzieContext, type GaranzieDeps } from './context.js';
import { dueTimeScheduler } from './due-times.js';
import { ensureGaranzieIndexes } from './garanzie-store.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { Garanzia, Prenotazione } from './resolvers/Garanzia.js';
import { Mutation } from './resolvers/Mutation.js';
import { PenaleGaranzia, PoliticaGaranzie, RegolaGaranzia } from './resolvers/PoliticaGaranzie.js';
import { Query } from './resolvers/Query.js';
import { createStripePayments } from './stripe-payments.js';
import type { StripeSettings } from './stripe-settings.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = {
  Query,
  Mutation,
  Garanzia,
  Prenotazione,
  PoliticaGaranzie,
  RegolaGaranzia,
  PenaleGaranzia,
};

/**
 * The garanzie subgraph (guarantees and payments through Stripe), ready to be served in-process or over HTTP, with
 * its durable consumer of the booking events. `stripe`: how to reach Stripe (no key: no guarantees).
 */
export function createGaranzieSubgraph(
  deps: GaranzieDeps,
  stripe: StripeSettings,
): Subgraph<GaranzieContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  const payments = createStripePayments(stripe);
  if (!deps.serviceTokens) throw new Error('garanzie needs the service-token issuer (SERVICE_TOKEN_SECRET)');
  const now = deps.now ?? (() => new Date());
  const dueTimes = dueTimeScheduler({
    store: deps.store,
    subgraphs: deps.subgraphs,
    serviceTokens: deps.serviceTokens,
    now,
    pollMs: stripe.duePollMs,
  });
  return {
    name: 'garanzie',
    typeDefs,
    schema,
    outboxCollections: [],
    createContext: (request) =>
      createGaranzieContext(deps, payments, dueTimes, request, stripe.publishableKey),
    init: async () => {
      await ensureGaranzieIndexes(deps.store);
      await dueTimes.init();
    },
    eventConsumers: [bookingEventConsumer(deps.store, payments, dueTimes, now)],
    workers: [dueTimes],
  };
}
export type { GaranzieDeps } from './context.js';
export {
  ACCOUNT_ID_PATTERN,
  CURRENCY_PATTERN,
  DEFAULT_DUE_MINUTES,
  DUE_MINUTES_RANGE,
  POLICY_LIMITS,
} from './policy.js';
export { stripeSettingsOf, stripeSettingsShape, type StripeSettings } from './stripe-settings.js';
