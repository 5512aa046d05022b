import { tagged } from '../rest-route.js';

/** Bookings: list, read one, create, update, status, delta sync. */
export const prenotazioniRoutes = tagged('Prenotazioni', [
  {
    method: 'POST',
    path: '/api/prenotazioni',
    operation: 'CreatePrenotazione',
    docs: {
      summary: 'Create a booking',
      description:
        'At most one of `tableIds`, `combinationId`, `autoAssign: true` (which needs an active `state`); `opzioneId|holdId` books what an option holds (docs/seating.md): then no placement or `durationMinutes`, and `covers`/`bookingDate`, when sent, must be the option’s (a 400 naming them otherwise). A `tableIds` entry or a `combinationId` that is not this tenant’s is a 400 naming it (the body names it; 404 is for the URL’s own id). A booking channel’s answer carries `gestione|manage: {token, expiresAt}`, the guest’s own token for this booking (docs/channels.md, “Guest tokens”); null for staff.',
      body: { into: 'input', except: ['externalId'] },
      errors: ['TABLE_UNAVAILABLE', 'NO_TABLE_AVAILABLE', 'OPTION_EXPIRED'],
      example: { covers: 4, bookingDate: '2026-12-24T20:00:00', customerName: 'Rossi', autoAssign: true },
    },
    field: 'createPrenotazione',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/opzioni',
    operation: 'CreateOpzione',
    docs: {
      summary: 'Hold tables while a guest completes a booking (an option)',
      description:
        'One of `tableIds`, `combinationId`, `autoAssign: true`; `ttl` 30..900 s (default 300). The tables are held until `expiresAt`. A table or combination that is not this tenant’s is a 400 naming it.',
      body: { into: 'input' },
      errors: ['TABLE_UNAVAILABLE', 'NO_TABLE_AVAILABLE'],
      example: { covers: 2, bookingDate: '2026-12-24T20:00:00', autoAssign: true, ttl: 300 },
    },
    field: 'createOpzione',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/opzioni',
    operation: 'ListOpzioni',
    docs: { summary: 'Live options (unexpired, unused, unreleased)' },
    field: 'opzioni',
  },
  {
    method: 'DELETE',
    path: '/api/prenotazioni/opzioni/:id',
    operation: 'ReleaseOpzione',
    docs: { summary: 'Release an option (frees its tables at once)' },
    field: 'releaseOpzione',
  },
  {
    method: 'GET',
    path: '/api/prenotazioni',
    operation: 'ListPrenotazioni',
    docs: {
      summary: 'List bookings',
      description: '`dal`/`al` are local dates (inclusive).',
      query: { into: 'filter' },
    },
    field: 'prenotazioni',
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/sync',
    operation: 'SyncPrenotazioni',
    docs: {
      summary: 'Changes since a time (offline sync)',
      description:
        'Every booking changed after `modifiedSince`, oldest change first; use `serverTime` as the next `modifiedSince`.',
      query: {},
    },
    field: 'syncPrenotazioni',
  },
  {
    method: 'GET',
    path: '/api/prenotazioni/:id',
    operation: 'GetPrenotazione',
    docs: { summary: 'Read one booking' },
    field: 'prenotazione',
    notFound: 'Prenotazione',
  },
  {
    method: 'PATCH',
    path: '/api/prenotazioni/:id',
    operation: 'UpdatePrenotazione',
    docs: {
      summary: 'Change a booking',
      description:
        'A `tableIds` entry or a `combinationId` that is not this tenant’s is a 400 naming it (the body names it; 404 is for the URL’s own id). A guest token may send only `covers|numeroPersone`, `bookingDate|dataOra` and `notes`; a new party or time is placed again by the autoAssign rule (nothing fits: 409, the booking unchanged).',
      body: { into: 'input' },
      errors: ['TABLE_UNAVAILABLE', 'NO_TABLE_AVAILABLE', 'INVALID_TRANSITION'],
      example: { covers: 5 },
    },
    field: 'updatePrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/conferma',
    operation: 'ConfermaPrenotazione',
    docs: { summary: 'Confirm a booking', errors: ['INVALID_TRANSITION'] },
    field: 'confermaPrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/annulla',
    operation: 'AnnullaPrenotazione',
    docs: {
      summary: 'Cancel a booking',
      body: {},
      errors: ['INVALID_TRANSITION'],
      example: { motivo: 'Cliente malato' },
    },
    field: 'annullaPrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/gestione',
    operation: 'GestionePrenotazione',
    docs: {
      summary: "A guest token for the booking (the guest's manage link)",
      description:
        'Staff only. `{token, expiresAt}`: a token of role guest for this booking, expiring at its end, that may only read it, confirm it, cancel it and change its covers, `bookingDate` and notes (docs/channels.md, "Guest tokens"). A booking that has already ended is a 409.',
      errors: ['INVALID_TRANSITION'],
    },
    field: 'gestionePrenotazione',
  },
  {
    method: 'POST',
    path: '/api/prenotazioni/:id/stato',
    operation: 'CambiaStatoPrenotazione',
    docs: {
      summary: 'Move a booking to a state',
      body: {},
      errors: ['INVALID_TRANSITION', 'TABLE_UNAVAILABLE'],
      example: { nuovoStato: 'completata' },
    },
    field: 'cambiaStatoPrenotazione',
  },
]);
