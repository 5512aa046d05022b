import DataLoader from 'dataloader';
import type { KeptLoads } from '@coperto/async';
import { bumpReadScope, READ_SCOPES, readScopeVersion } from '@coperto/cache';
import { AvailabilityService } from './availability/availability-service.js';
import { capacitySlots } from './availability/bookable-slots.js';
import { DayArrivals, type Arrivals, type KeptDayArrivals } from './availability/day-arrivals.js';
import type { BookableSlot } from './availability/day-search.js';
import type { ServiceTokenIssuer, Viewer } from '@coperto/auth';
import type { Logger, SubgraphClient, SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { TenantStore } from '@coperto/store';
import { GuestTokens } from './bookings/guest-tokens.js';
import { NewBookings } from './bookings/new-bookings.js';
import type { PrenotazioneRecord } from './bookings/prenotazione-record.js';
import { PrenotazioneService } from './bookings/prenotazione-service.js';
import { PrenotazioneStore } from './bookings/prenotazione-store.js';
import { channelOrigine, ServiceTokenRights } from './bookings/service-token-rights.js';
import { SyncService } from './bookings/sync-service.js';
import { bookingEvents, waitlistEvents } from './events.js';
import { BookingFromOption } from './options/booking-from-option.js';
import { OpzioneService } from './options/opzione-service.js';
import { OpzioneStore } from './options/opzione-store.js';
import { GuestDataEraser } from './privacy/guest-data-eraser.js';
import { AgendaService } from './seating/agenda-service.js';
import { Reseater } from './seating/reseater.js';
import { SeatPlacement } from './seating/seat-placement.js';
import {
  createSeatingSources,
  type SeatingConfigCache,
  type SeatingSources,
} from './seating/seating-sources.js';
import { TableAgendaStore } from './seating/table-agenda-store.js';
import { TableClaims } from './seating/table-claims.js';
import { QueuePlaces } from './waitlist/waitlist-places.js';
import { subgraphSeatingInputs, type SeatingInputs } from './waitlist/waitlist-seating-inputs.js';
import { WaitlistSeating, type WalkInBookings } from './waitlist/waitlist-seating.js';
import { WaitlistService } from './waitlist/waitlist-service.js';
import { WaitlistStore } from './waitlist/waitlist-store.js';

export type PrenotazioneDeps = SubgraphDeps;

/** One request's services, each built once and handed to the others that need it. */
export interface PrenotazioneServices {
  /** What a channel key may send and which booking a guest token may see and change; staff unlimited. */
  rights: ServiceTokenRights;
  /** A booking's guest tokens (`gestione`). */
  guestTokens: GuestTokens;
  /** Bookings: reads, creates, moves, the state flow. */
  prenotazioni: PrenotazioneService;
  /** The delta sync of bookings. */
  sync: SyncService;
  /** The tables' holds by window (`occupazioniTavoli`). */
  agenda: AgendaService;
  opzioni: OpzioneService;
  waitlist: WaitlistService;
  /** The bookable times of a day (`disponibilita`). */
  availability: AvailabilityService;
  /** A day's active bookings summed by start and stay (`arriviGiorno`, capacity's pacing count). */
  arrivals: DayArrivals;
  /** The erasure of a guest's data from its bookings and entries (ospiti's oblio). */
  guestData: GuestDataEraser;
}

export interface PrenotazioneContext extends PrenotazioneServices {
  /** Batches `_entities` references: one store query per request for N bookings. */
  prenotazioneById: DataLoader<string, PrenotazioneRecord | null>;
}

/** What one tenant's services are built from. Tests give their own sources, and may wrap stores. */
export interface ServiceParts {
  tenantStore: TenantStore;
  viewer: Viewer;
  /** The waitlist's calls to tavolo (unless `waitlistInputs` is given). */
  subgraphs: SubgraphClient;
  /** Tables (and whether they exist), combinations and the seating settings, from tavolo and capacity. */
  seating: SeatingSources;
  timeZone: string;
  now: () => Date;
  onEventsWritten: () => void;
  logger?: Logger | undefined;
  /** Signs guest tokens (the process's service-token issuer). */
  serviceTokens?: ServiceTokenIssuer | undefined;
  stores?: {
    bookings?: PrenotazioneStore | undefined;
    agenda?: TableAgendaStore | undefined;
    options?: OpzioneStore | undefined;
    waitlist?: WaitlistStore | undefined;
  };
  /** The waitlist's view of the floor (default: tavolo's API through `subgraphs`). */
  waitlistInputs?: SeatingInputs | undefined;
  /** The waitlist's walk-in bookings (default: the booking service's import). */
  walkIns?: WalkInBookings | undefined;
  /** capacity's bookable slots of a date, for the availability search (default: capacity's API). */
  bookableSlots?: ((date: string) => Promise<BookableSlot[]>) | undefined;
  /** After every booking write, before it is answered: replaces the bookings' read-scope version. */
  onBookingsWritten?: (() => Promise<void>) | undefined;
  /** Where the day sums are kept (`arriviGiorno`); none: summed by the store on every count. */
  keptArrivals?: KeptDayArrivals | undefined;
}

/** Builds one tenant's services and the seating objects they share (claims, placement, re-seating). */
export function createPrenotazioneServices(parts: ServiceParts): PrenotazioneServices {
  const { viewer, timeZone, now, onEventsWritten, logger } = parts;
  const rights = new ServiceTokenRights(viewer);
  const channelId = rights.channel?.id ?? null;
  const store = parts.stores?.bookings ?? new PrenotazioneStore(parts.tenantStore, parts.onBookingsWritten);
  const options = parts.stores?.options ?? new OpzioneStore(parts.tenantStore);
  const claims = new TableClaims({
    agenda: parts.stores?.agenda ?? new TableAgendaStore(parts.tenantStore),
    bookings: store,
    options,
    now,
    logger,
  });
  const placement = new SeatPlacement({ claims, sources: parts.seating, timeZone });
  const event = bookingEvents(viewer.tenantId);
  const reseater = new Reseater({
    claims,
    placement,
    store,
    sources: parts.seating,
    now,
    event,
    onEventsWritten,
    logger,
  });
  const inserts = new NewBookings({
    store,
    claims,
    event,
    onEventsWritten,
    channel: rights.channel,
    channelOrigine: channelOrigine(viewer),
  });
  const fromOption = new BookingFromOption({ options, claims, bookings: inserts, timeZone, now, channelId });
  const prenotazioni = new PrenotazioneService({
    store,
    claims,
    placement,
    reseater,
    seating: parts.seating,
    inserts,
    fromOption,
    event,
    timeZone,
    now,
    onEventsWritten,
  });
  const agenda = new AgendaService(claims);
  const waitlistStore = parts.stores?.waitlist ?? new WaitlistStore(parts.tenantStore);
  const waitlistInputs =
    parts.waitlistInputs ??
    subgraphSeatingInputs({ subgraphs: parts.subgraphs, viewer, seating: parts.seating });
  const places = new QueuePlaces({ seating: waitlistInputs, agenda, now });
  const waitlistEvent = waitlistEvents(viewer.tenantId);
  const availability = new AvailabilityService({
    sources: parts.seating,
    slots: parts.bookableSlots ?? capacitySlots(parts.subgraphs, viewer.token),
    heldIn: (tableIds, from, to) => claims.heldIn(tableIds, from, to),
    bookings: (ids) => store.findByIds(ids),
    timeZone,
    now,
    // staff only: a token the service issued (a channel's key) is told the times, never the tables
    showPlaces: viewer.grant === undefined,
  });
  return {
    rights,
    guestTokens: new GuestTokens({
      viewer,
      issuer: parts.serviceTokens,
      findById: (id) => store.findById(id),
      now,
    }),
    prenotazioni,
    availability,
    arrivals: new DayArrivals(store, parts.keptArrivals ?? null),
    guestData: new GuestDataEraser({
      viewer,
      bookings: store,
      waitlist: waitlistStore,
      event,
      waitlistEvent,
      now,
      onEventsWritten,
    }),
    sync: new SyncService(store, now),
    agenda,
    opzioni: new OpzioneService({
      store: options,
      placement,
      reseater,
      claims,
      seating: parts.seating,
      timeZone,
      now,
      channelId,
    }),
    waitlist: new WaitlistService({
      store: waitlistStore,
      places,
      seating: new WaitlistSeating({
        store: waitlistStore,
        walkIns: parts.walkIns ?? prenotazioni,
        seating: waitlistInputs,
        places,
        event: waitlistEvent,
        now,
        onEventsWritten,
        logger,
      }),
      event: waitlistEvent,
      timeZone,
      now,
      onEventsWritten,
    }),
  };
}

/** What the subgraph keeps per process, shared by every request. */
export interface PrenotazioneShared {
  seatingConfig: SeatingConfigCache;
  /** Each tenant's day sums (`arriviGiorno`), under its bookings' read-scope version. */
  arrivals: KeptLoads<Arrivals[]>;
}

export async function createPrenotazioneContext(
  deps: PrenotazioneDeps,
  request: SubgraphRequest,
  { seatingConfig, arrivals }: PrenotazioneShared,
): Promise<PrenotazioneContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const tenantStore = deps.store.forTenant(viewer.tenantId);
  const cache = deps.cache.forTenant(viewer.tenantId);
  const services = createPrenotazioneServices({
    // Every booking write replaces the version the day sums are kept under, in every process (DayArrivals).
    onBookingsWritten: () => bumpReadScope(cache, READ_SCOPES.bookings),
    keptArrivals: {
      copies: arrivals,
      tenantId: viewer.tenantId,
      version: () => readScopeVersion(cache, READ_SCOPES.bookings),
    },
    tenantStore,
    viewer,
    subgraphs: deps.subgraphs,
    seating: createSeatingSources({
      subgraphs: deps.subgraphs,
      configCache: seatingConfig,
      tenantId: viewer.tenantId,
      token: viewer.token,
    }),
    timeZone: deps.timeZone,
    now: deps.now ?? (() => new Date()),
    onEventsWritten: deps.onEventsWritten,
    serviceTokens: deps.serviceTokens,
  });
  const bookings = new PrenotazioneStore(tenantStore);
  return {
    ...services,
    prenotazioneById: new DataLoader(async (ids) => {
      const found = new Map((await bookings.findByIds(ids)).map((p) => [p.id, p]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
