import DataLoader from 'dataloader';
import type { Viewer } from '@coperto/auth';
import { ForbiddenError } from '@coperto/errors';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { GaranziaRecord } from './garanzia-record.js';
import { GaranzieStore } from './garanzie-store.js';
import { GuaranteeService, type DueTimes } from './guarantee-service.js';
import { PolicyService } from './policy-service.js';
import type { StripePayments } from './stripe-payments.js';
import { WebhookService } from './webhook-service.js';

export type GaranzieDeps = SubgraphDeps;

export interface GaranzieContext {
  viewer: Viewer;
  store: GaranzieStore;
  /** Staff only (a channel key, guest token or payments token: 403). */
  policy(): PolicyService;
  webhooks: WebhookService;
  guarantees: GuaranteeService;
  /** Batches the guarantees of the bookings of one request: one store query for N. */
  guaranteeOf: DataLoader<string, GaranziaRecord | null>;
  /** Whether the viewer may read booking `id`'s guarantee, and its clientSecret. */
  seesGuarantee(bookingId: string): { guarantee: boolean; clientSecret: boolean };
  /** STRIPE_PUBLISHABLE_KEY (null: unset), given where the clientSecret is. */
  publishableKey: string | null;
}

export async function createGaranzieContext(
  deps: GaranzieDeps,
  stripe: StripePayments | null,
  dueTimes: DueTimes,
  request: SubgraphRequest,
  publishableKey: string | null = null,
): Promise<GaranzieContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const store = new GaranzieStore(deps.store.forTenant(viewer.tenantId));
  const now = deps.now ?? (() => new Date());
  const policy = new PolicyService({ store, viewer, stripeConfigured: stripe !== null, now });
  return {
    viewer,
    store,
    publishableKey,
    policy: () => {
      if (viewer.grant) throw new ForbiddenError('Guarantee policies are for staff only');
      return policy;
    },
    webhooks: new WebhookService({ store, viewer, subgraphs: deps.subgraphs, now }),
    guarantees: new GuaranteeService({ tenantId: viewer.tenantId, store, stripe, dueTimes, now }),
    guaranteeOf: new DataLoader(async (ids) => {
      const found = new Map((await store.guarantees(ids)).map((g) => [g.id, g]));
      return ids.map((id) => found.get(id) ?? null);
    }),
    seesGuarantee: (bookingId) => {
      const { grant } = viewer;
      if (!grant) return { guarantee: true, clientSecret: true };
      // The booking's guest pays with the clientSecret (the booking page asks with the guest token); nobody else.
      const own = grant.role === 'guest' && grant.bookingId === bookingId;
      return { guarantee: own, clientSecret: own };
    },
  };
}
