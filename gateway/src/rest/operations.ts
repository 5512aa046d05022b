/**
 * The named GraphQL operations behind the REST facade: one fixed document per route, so the gateway's
 * query-plan cache always hits. The REST responses are exactly what these select.
 */
import { attesaOperations } from './operations/attesa.js';
import { bookingsOperations } from './operations/bookings.js';
import { canaliOperations } from './operations/canali.js';
import { capacityOperations } from './operations/capacity.js';
import { combinazioniOperations } from './operations/combinazioni.js';
import { disponibilitaOperations } from './operations/disponibilita.js';
import { garanzieOperations } from './operations/garanzie.js';
import { integrazioniOperations } from './operations/integrazioni.js';
import { ospitiOperations } from './operations/ospiti.js';
import { rapportiOperations } from './operations/rapporti.js';
import { prenotazioniOperations } from './operations/prenotazioni.js';
import { saleOperations } from './operations/sale.js';
import { tavoliOperations } from './operations/tavoli.js';
import { webhooksOperations } from './operations/webhooks.js';

export const operations = {
  ...tavoliOperations,
  ...saleOperations,
  ...prenotazioniOperations,
  ...disponibilitaOperations,
  ...bookingsOperations,
  ...capacityOperations,
  ...combinazioniOperations,
  ...attesaOperations,
  ...canaliOperations,
  ...ospitiOperations,
  ...garanzieOperations,
  ...webhooksOperations,
  ...integrazioniOperations,
  ...rapportiOperations,
} as const;

export type OperationName = keyof typeof operations;
