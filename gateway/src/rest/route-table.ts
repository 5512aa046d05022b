import { operations } from './operations.js';
import type { RestRoute } from './rest-route.js';
import { attesaRoutes } from './routes/attesa.js';
import { bookingsRoutes } from './routes/bookings.js';
import { canaliRoutes } from './routes/canali.js';
import { capacityRoutes } from './routes/capacity.js';
import { combinazioniRoutes } from './routes/combinazioni.js';
import { disponibilitaRoutes } from './routes/disponibilita.js';
import { garanzieRoutes } from './routes/garanzie.js';
import { integrazioniRoutes } from './routes/integrazioni.js';
import { ospitiRoutes } from './routes/ospiti.js';
import { rapportiRoutes } from './routes/rapporti.js';
import { prenotazioniRoutes } from './routes/prenotazioni.js';
import { saleRoutes } from './routes/sale.js';
import { tavoliRoutes } from './routes/tavoli.js';
import { webhooksRoutes } from './routes/webhooks.js';

export type { HttpMethod, RestRoute } from './rest-route.js';

/** The REST facade's route table: every documented `/api` path and the operation behind it. */
export const routes: readonly RestRoute[] = [
  ...tavoliRoutes,
  ...saleRoutes,
  ...prenotazioniRoutes,
  ...disponibilitaRoutes,
  ...bookingsRoutes,
  ...capacityRoutes,
  ...combinazioniRoutes,
  ...attesaRoutes,
  ...canaliRoutes,
  ...ospitiRoutes,
  ...garanzieRoutes,
  ...webhooksRoutes,
  ...integrazioniRoutes,
  ...rapportiRoutes,
];

export function operationDocument(route: RestRoute): string {
  return operations[route.operation];
}
