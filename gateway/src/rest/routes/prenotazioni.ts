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

/** Bookings: list, read one, create, update, status, delta sync. */
export const prenotazioniRoutes: readonly RestRoute[] = [
  {
    method: 'POST',
    path: '/api/prenotazioni',
    operation: 'CreatePrenotazione',
    docs: {
      tag: 'Prenotazioni',
      summary: 'Create a booking',
      description: 'A `tableIds` entry that is not a table of this tenant is a 404.',
      body: { into: 'input', fields: [...PRENOTAZIONE_FIELDS, 'state'] },
      errors: ['TABLE_UNAVAILABLE', 'NOT_FOUND'],
      example: { covers: 4, bookingDate: '2026-12-24T20:00:00', customerName: 'Rossi', tableIds: [] },
    },
    field: 'createPrenotazione',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/prenotazioni',
    operation: 'ListPrenotazioni',
    docs: {
      tag: 'Prenotazioni',
      summary: 'List bookings',
      description: '`dal`/`al` are local dates (inclusive).',
      query: { into: 'filter', names: ['dal', 'al', 'state', 'tableId', 'activeOnly'] },
    },
    field: 'prenotazioni',
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/sync',
    operation: 'SyncPrenotazioni',
    docs: {
      tag: 'Prenotazioni',
      summary: 'Changes since a time (offline sync)',
      description:
        'Every booking changed after `modifiedSince`, oldest change first; use `serverTime` as the next `modifiedSince`.',
      query: { names: ['modifiedSince', 'dal', 'al', 'limit'] },
    },
    field: 'syncPrenotazioni',
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/:id',
    operation: 'GetPrenotazione',
    docs: { tag: 'Prenotazioni', summary: 'Read one booking' },
    field: 'prenotazione',
    notFound: 'Prenotazione',
  },
  {
    method: 'PATCH',
    path: '/api/prenotazioni/:id',
    operation: 'UpdatePrenotazione',
    docs: {
      tag: 'Prenotazioni',
      summary: 'Change a booking',
      body: { into: 'input', fields: PRENOTAZIONE_FIELDS },
      errors: ['TABLE_UNAVAILABLE', 'INVALID_TRANSITION'],
      example: { covers: 5 },
    },
    field: 'updatePrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/conferma',
    operation: 'ConfermaPrenotazione',
    docs: { tag: 'Prenotazioni', summary: 'Confirm a booking', errors: ['INVALID_TRANSITION'] },
    field: 'confermaPrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/annulla',
    operation: 'AnnullaPrenotazione',
    docs: {
      tag: 'Prenotazioni',
      summary: 'Cancel a booking',
      body: { fields: ['motivo'] },
      errors: ['INVALID_TRANSITION'],
      example: { motivo: 'Cliente malato' },
    },
    field: 'annullaPrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/stato',
    operation: 'CambiaStatoPrenotazione',
    docs: {
      tag: 'Prenotazioni',
      summary: 'Move a booking to a state',
      body: { fields: ['nuovoStato'], required: ['nuovoStato'] },
      errors: ['INVALID_TRANSITION', 'TABLE_UNAVAILABLE'],
      example: { nuovoStato: 'completata' },
    },
    field: 'cambiaStatoPrenotazione',
  },
];
