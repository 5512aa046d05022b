import {
  bodyObject,
  defined,
  pick,
  queryBoolean,
  queryInt,
  queryString,
  type RestRequest,
} from '../request-input.js';
import type { RestRoute } from '../route.js';

/** Creation and PATCH accept both name forms; the service lets English win. */
const PRENOTAZIONE_FIELDS = [
  'covers',
  'numeroPersone',
  'bookingDate',
  'dataOra',
  'customerName',
  'cliente',
  'customerPhone',
  'tableIds',
  'notes',
  'durationMinutes',
];
const id = (req: RestRequest) => ({ id: req.params.id });

/** Bookings (interface.md 4.3; list, read-one and update per decisions.md). */
export const prenotazioniRoutes: readonly RestRoute[] = [
  {
    method: 'POST',
    path: '/api/prenotazioni',
    operation: 'CreatePrenotazione',
    field: 'createPrenotazione',
    status: 201,
    variables: (req) => ({ input: pick(bodyObject(req), [...PRENOTAZIONE_FIELDS, 'state']) }),
  },
  {
    method: 'GET',
    path: '/api/prenotazioni',
    operation: 'ListPrenotazioni',
    field: 'prenotazioni',
    variables: ({ query }) => ({
      filter: defined({
        dal: queryString(query, 'dal'),
        al: queryString(query, 'al'),
        state: queryString(query, 'state'),
        tableId: queryString(query, 'tableId'),
        activeOnly: queryBoolean(query, 'activeOnly'),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/sync',
    operation: 'SyncPrenotazioni',
    field: 'syncPrenotazioni',
    variables: ({ query }) =>
      defined({
        modifiedSince: queryString(query, 'modifiedSince'),
        dal: queryString(query, 'dal'),
        al: queryString(query, 'al'),
        limit: queryInt(query, 'limit'),
      }),
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/:id',
    operation: 'GetPrenotazione',
    field: 'prenotazione',
    notFound: 'Prenotazione',
    variables: id,
  },
  {
    method: 'PATCH',
    path: '/api/prenotazioni/:id',
    operation: 'UpdatePrenotazione',
    field: 'updatePrenotazione',
    variables: (req) => ({ ...id(req), input: pick(bodyObject(req), PRENOTAZIONE_FIELDS) }),
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/conferma',
    operation: 'ConfermaPrenotazione',
    field: 'confermaPrenotazione',
    variables: id,
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/annulla',
    operation: 'AnnullaPrenotazione',
    field: 'annullaPrenotazione',
    variables: (req) => ({ ...id(req), ...pick(bodyObject(req), ['motivo']) }),
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/stato',
    operation: 'CambiaStatoPrenotazione',
    field: 'cambiaStatoPrenotazione',
    variables: (req) => ({ ...id(req), ...pick(bodyObject(req), ['nuovoStato']) }),
  },
];
