import { tagged } from '../rest-route.js';

/** Guests (docs/guests.md): search, read, edit, their bookings, duplicates, merge; export and erasure (admin). */
export const ospitiRoutes = tagged('Ospiti', [
  {
    method: 'GET',
    path: '/api/ospiti',
    operation: 'ListOspiti',
    docs: {
      summary: 'Search the guests',
      description:
        '`q`: a name (each word the start of a word of the name, any case or accents), a phone number (whole, or its last 4 or more digits) or an email; `tag`: guests with that tag; `limite` 1..200 (default 50). By name; erased guests are never found.',
      query: {},
    },
    field: 'ospiti',
  },
  {
    method: 'GET',
    path: '/api/ospiti/duplicati',
    operation: 'OspitiDuplicati',
    docs: {
      summary: 'Pairs of guests that may be one person',
      description:
        'Pairs sharing at least two of name, phone and email (`campi`), the older guest first; at most 200.',
    },
    field: 'ospitiDuplicati',
  },
  {
    method: 'GET',
    path: '/api/ospiti/:id',
    operation: 'GetOspite',
    docs: { summary: 'Read one guest' },
    field: 'ospite',
    notFound: 'Ospite',
  },
  {
    method: 'PATCH',
    path: '/api/ospiti/:id',
    operation: 'UpdateOspite',
    docs: {
      summary: 'Change a guest’s profile',
      description:
        '`telefono` is stored in E.164 (a number without a prefix takes the tenant’s country), `email` lower-cased; a field sent as null is cleared. An erased guest cannot be changed (409 INVALID_TRANSITION).',
      body: { into: 'input' },
      errors: ['INVALID_TRANSITION'],
      example: { tags: ['VIP'], allergies: ['peanuts'], notes: 'window table' },
    },
    field: 'updateOspite',
  },
  {
    method: 'GET',
    path: '/api/ospiti/:id/prenotazioni',
    operation: 'PrenotazioniOspite',
    docs: { summary: 'The guest’s bookings, latest start first' },
    field: 'prenotazioniOspite',
    notFound: 'Ospite',
  },
  {
    method: 'POST',
    path: '/api/ospiti/:id/unisci',
    operation: 'UnisciOspiti',
    docs: {
      summary: 'Merge another guest into this one',
      description:
        'The guest `ospiteId` is merged into this one: its bookings and waitlist entries relinked, counts summed, tags and allergies joined, fields this one lacks taken from it; it is gone (404) afterwards. `ospiteId` must be another guest than the one in the path (400 naming `ospiteId`).',
      body: {},
      errors: ['INVALID_TRANSITION'],
      example: { ospiteId: '6f1c2a4e-0000-4000-8000-000000000000' },
    },
    field: 'unisciOspiti',
  },
  {
    method: 'GET',
    path: '/api/ospiti/:id/esporta',
    operation: 'EsportaOspite',
    docs: {
      summary: 'Everything held about a guest (administrator)',
      description: 'The profile, its bookings and its waitlist entries, as JSON (GDPR access request).',
      errors: ['FORBIDDEN'],
    },
    field: 'esportaOspite',
  },
  {
    method: 'POST',
    path: '/api/ospiti/:id/oblio',
    operation: 'OblioOspite',
    docs: {
      summary: 'Erase a guest (administrator)',
      description:
        'Replaces the profile’s name, phone, email, language, notes, tags and allergies, keeping the counts; its phone and email lead to no guest afterwards. 409 IN_USE while the guest has an active booking still to come. Again on an erased guest: the same answer.',
      errors: ['FORBIDDEN', 'IN_USE'],
    },
    field: 'oblioOspite',
  },
]);
