import DataLoader from 'dataloader';
import { ForbiddenError } from '@coperto/errors';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { currentGuest } from './guest-writes.js';
import type { OspiteRecord } from './ospite-record.js';
import { OspitiService } from './ospiti-service.js';
import { OspitiStore } from './ospiti-store.js';
import { bookingLinks, GuestPrivacy } from './privacy.js';
import type { RetentionScheduler } from './retention.js';

export type OspitiDeps = SubgraphDeps;

export interface OspitiContext {
  ospiti: OspitiService;
  privacy: GuestPrivacy;
  store: OspitiStore;
  now: () => Date;
  /** Batches `_entities` references: one store query per request for N guests. */
  guestById: DataLoader<string, OspiteRecord | null>;
  /** The guest of each link id (`p:<bookingId>`, `a:<entryId>`): two store queries per request for N records. */
  guestOfLink: DataLoader<string, OspiteRecord | null>;
  /** The guest's bookings as references, latest start first: prenotazione resolves the rest of each. */
  bookingsOf(ospiteId: string): Promise<Array<{ __typename: 'Prenotazione'; id: string }>>;
}

export async function createOspitiContext(
  deps: OspitiDeps,
  retention: Pick<RetentionScheduler, 'scheduleToday'>,
  request: SubgraphRequest,
): Promise<OspitiContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  // Guest profiles are staff data: a channel key or a guest token (a grant the service issued) reads none of it.
  if (viewer.grant) throw new ForbiddenError('Guest profiles are for staff only');
  const store = new OspitiStore(deps.store.forTenant(viewer.tenantId), deps.onEventsWritten);
  const now = deps.now ?? (() => new Date());
  const guestById = new DataLoader<string, OspiteRecord | null>(async (ids) => {
    const found = new Map((await store.guests(ids)).map((g) => [g.id, g]));
    // A guest being merged reads as the one it goes into (rare: one more read each).
    return Promise.all(
      ids.map(async (id) => {
        const guest = found.get(id);
        return guest?.unitoIn ? currentGuest(store, guest.unitoIn) : (guest ?? null);
      }),
    );
  });
  return {
    ospiti: new OspitiService({ store, viewer, now, retention }),
    privacy: new GuestPrivacy({ store, viewer, subgraphs: deps.subgraphs, now }),
    store,
    now,
    guestById,
    bookingsOf: async (ospiteId) =>
      bookingLinks(await store.linksOf(ospiteId)).map((link) => ({
        __typename: 'Prenotazione' as const,
        id: link.riferimento,
      })),
    guestOfLink: new DataLoader(async (linkIds) => {
      const links = new Map((await store.links(linkIds)).map((l) => [l.id, l]));
      return Promise.all(
        linkIds.map((id) => {
          const link = links.get(id);
          return link ? guestById.load(link.ospiteId) : null;
        }),
      );
    }),
  };
}
