import DataLoader from 'dataloader';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import type { DefaultMealMinutes } from './meal-minutes.js';
import type { PrenotazioneRecord } from './prenotazione-record.js';
import { PrenotazioneService } from './prenotazione-service.js';
import { PrenotazioneStore } from './prenotazione-store.js';
import { TableAgendaStore } from './table-agenda-store.js';
import { subgraphSeatingInputs } from './waitlist-seating-inputs.js';
import { WaitlistService } from './waitlist-service.js';
import { WaitlistStore } from './waitlist-store.js';

export type PrenotazioneDeps = SubgraphDeps;

export interface PrenotazioneContext {
  prenotazioni: PrenotazioneService;
  waitlist: WaitlistService;
  /** Batches `_entities` references: one store query per request for N bookings. */
  prenotazioneById: DataLoader<string, PrenotazioneRecord | null>;
}

export async function createPrenotazioneContext(
  deps: PrenotazioneDeps,
  request: SubgraphRequest,
  mealMinutes: DefaultMealMinutes,
): Promise<PrenotazioneContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  const tenantStore = deps.store.forTenant(viewer.tenantId);
  const store = new PrenotazioneStore(tenantStore);
  const prenotazioni = new PrenotazioneService({
    store,
    agenda: new TableAgendaStore(tenantStore),
    viewer,
    subgraphs: deps.subgraphs,
    timeZone: deps.timeZone,
    now: deps.now ?? (() => new Date()),
    defaultMealMinutes: () => mealMinutes.get(viewer.tenantId, viewer.token),
    onEventsWritten: deps.onEventsWritten,
  });
  return {
    prenotazioni,
    waitlist: new WaitlistService({
      store: new WaitlistStore(tenantStore),
      bookings: prenotazioni,
      seating: subgraphSeatingInputs({
        subgraphs: deps.subgraphs,
        viewer,
        defaultMealMinutes: () => mealMinutes.get(viewer.tenantId, viewer.token),
      }),
      viewer,
      timeZone: deps.timeZone,
      now: deps.now ?? (() => new Date()),
      onEventsWritten: deps.onEventsWritten,
    }),
    prenotazioneById: new DataLoader(async (ids) => {
      const found = new Map((await store.findByIds(ids)).map((p) => [p.id, p]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
