import { operations } from './operations.js';
import type { RestRoute } from './route.js';
import { prenotazioniRoutes } from './routes/prenotazioni.js';
import { saleRoutes } from './routes/sale.js';
import { tavoliRoutes } from './routes/tavoli.js';

export type { HttpMethod, RestRoute } from './route.js';

/** The REST facade's route table: every documented `/api` path and the operation behind it. */
export const routes: readonly RestRoute[] = [...tavoliRoutes, ...saleRoutes, ...prenotazioniRoutes];

export function operationDocument(route: RestRoute): string {
  return operations[route.operation];
}
