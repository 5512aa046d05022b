import { tagged } from '../rest-route.js';

/** The waitlist (walk-in parties): add, today's queue, read one, notify, seat, left or cancelled. */
export const attesaRoutes = tagged('Attesa', [
  {
    method: 'POST',
    path: '/api/attesa',
    operation: 'AggiungiAttesa',
    docs: {
      summary: 'Add a party to the waitlist',
      description:
        'State `waiting`, its `position` in today’s queue and `quotedMinutes`: the earliest a fitting table or combination is free for the party’s turn time, given the tables’ statuses, their bookings and the parties ahead. Publishes `waitlist.added`.',
      body: { into: 'input' },
      example: { customerName: 'Rossi', covers: 3, customerPhone: '+39 333 1234567', notes: 'high chair' },
    },
    field: 'aggiungiAttesa',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/attesa',
    operation: 'ListaAttesa',
    docs: {
      summary: 'Today’s waitlist',
      description:
        'The waiting and notified parties of today, oldest first, each with its `position`, current `estimatedMinutes` and the tables the estimate counts on (`suggestedTableIds`).',
    },
    field: 'listaAttesa',
  },
  {
    method: 'GET',
    path: '/api/attesa/:id',
    operation: 'GetVoceAttesa',
    docs: { summary: 'Read one waitlist entry' },
    field: 'voceAttesa',
    notFound: 'VoceAttesa',
  },
  {
    method: 'POST',
    path: '/api/attesa/:id/avvisa',
    operation: 'AvvisaAttesa',
    docs: {
      summary: 'Tell the party its table is ready',
      description: 'To `notified`; publishes `waitlist.notified`.',
      errors: ['INVALID_TRANSITION'],
    },
    field: 'avvisaAttesa',
  },
  {
    method: 'POST',
    path: '/api/attesa/:id/siedi',
    operation: 'SiediAttesa',
    docs: {
      summary: 'Seat the party',
      description:
        'On `tableIds` or `combinationId`, or (neither) on the suggested fit that is free now. Creates the walk-in booking (`confermata`, now, the party’s turn time) on those tables, sets each table `occupied`, and moves the entry to `seated` with `prenotazioneId` and `tableIds`; publishes `waitlist.seated`. Again on a seated party: the same answer. A table or combination that is not an active one of this tenant is 409 `TABLE_UNAVAILABLE` (a 404 is the entry).',
      body: { into: 'input' },
      errors: ['INVALID_TRANSITION', 'TABLE_UNAVAILABLE', 'NO_TABLE_AVAILABLE'],
      example: { tableIds: ['<table id>'] },
    },
    field: 'siediAttesa',
  },
  {
    method: 'POST',
    path: '/api/attesa/:id/annulla',
    operation: 'AnnullaAttesa',
    docs: {
      summary: 'The party left, or the entry is cancelled',
      description:
        '`state`: `left` or `cancelled` (default), with an optional `motivo`; publishes `waitlist.left` or `waitlist.cancelled`.',
      body: { into: 'input' },
      errors: ['INVALID_TRANSITION'],
      example: { state: 'left', motivo: 'did not want to wait' },
    },
    field: 'annullaAttesa',
  },
]);
