import DataLoader from 'dataloader';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { OpzioneService } from './options/opzione-service.js';
import { OpzioneStore } from './options/opzione-store.js';
import type { PrenotazioneRecord } from './bookings/prenotazione-record.js';
import { PrenotazioneService } from './bookings/prenotazione-service.js';
import { PrenotazioneStore } from './bookings/prenotazione-store.js';
import { createSeatingSources, type SeatingConfigCache } from './seating/seating-sources.js';
import { TableAgendaStore } from './seating/table-agenda-store.js';
import { subgraphSeatingInputs } from './waitlist/waitlist-seating-inputs.js';
import { WaitlistService } from './waitlist/waitlist-service.js';
import { WaitlistStore } from './waitlist/waitlist-store.js';

export type PrenotazioneDeps = SubgraphDeps;

export interface PrenotazioneContext {
  prenotazioni: PrenotazioneService;
  opzioni: OpzioneService;
  waitlist: WaitlistService;
  /** Batches `_entities` references: one store query per request for N bookings. */
  prenotazioneById: DataLoader<string, PrenotazioneRecord | null>;
}

export async function createPrenotazioneContext(
  deps: PrenotazioneDeps,
  request: SubgraphRequest,
  seatingConfig: SeatingConfigCache,
): Promise<PrenotazioneContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const tenantStore = deps.store.forTenant(viewer.tenantId);
  const store = new PrenotazioneStore(tenantStore);
  const options = new OpzioneStore(tenantStore);
  const now = deps.now ?? (() => new Date());
  const seating = createSeatingSources({
    subgraphs: deps.subgraphs,
    configCache: seatingConfig,
    tenantId: viewer.tenantId,
    token: viewer.token,
  });
  const prenotazioni = new PrenotazioneService({
    store,
    agenda: new TableAgendaStore(tenantStore),
    options,
    viewer,
    subgraphs: deps.subgraphs,
    seating,
    timeZone: deps.timeZone,
    now,
    onEventsWritten: deps.onEventsWritten,
  });
  return {
    prenotazioni,
    opzioni: new OpzioneService({ store: options, prenotazioni, seating, timeZone: deps.timeZone, now }),
    waitlist: new WaitlistService({
      store: new WaitlistStore(tenantStore),
      bookings: prenotazioni,
      seating: subgraphSeatingInputs({ subgraphs: deps.subgraphs, viewer, seating }),
      viewer,
      timeZone: deps.timeZone,
      now,
      onEventsWritten: deps.onEventsWritten,
    }),
    prenotazioneById: new DataLoader(async (ids) => {
      const found = new Map((await store.findByIds(ids)).map((p) => [p.id, p]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
