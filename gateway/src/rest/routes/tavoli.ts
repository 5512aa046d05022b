import { READ_SCOPES } from '@coperto/cache';
import { DURATA_MEDIA_PASTO_MINUTES, LOCK_TTL_SECONDS } from '@coperto/subgraph-tavolo';
import { tagged } from '../rest-route.js';

/** Table reads are cached per tenant; the tavolo subgraph invalidates them on every write to `tavoli`. */
const TAVOLI_READS = { scope: READ_SCOPES.tables, ttlSeconds: 5 };

/** Tables: list, read one, create, update, delete, availability, status, locks. */
export const tavoliRoutes = tagged('Tavoli', [
  {
    method: 'GET',
    path: '/api/tavoli',
    operation: 'ListTavoli',
    docs: {
      summary: 'List the tables',
      query: { into: 'filter' },
    },
    field: 'tavoli',
    cache: TAVOLI_READS,
  },
  {
    method: 'POST',
    path: '/api/tavoli/verifica-disponibilita',
    operation: 'VerificaDisponibilita',
    docs: {
      summary: 'Tables and table combinations free for a party at a time',
      description: `\`dataOra\` is restaurant-local wall-clock time (an explicit offset or Z is converted); \`durataMediaPasto\` in minutes (${DURATA_MEDIA_PASTO_MINUTES.min}..${DURATA_MEDIA_PASTO_MINUTES.max}); without it, the turn time of \`numeroPersone\` (capacity's \`turnTimes\`, else \`defaultMealMinutes\`, default ${DURATA_MEDIA_PASTO_MINUTES.default}). \`combinazioniDisponibili|availableCombinations\`: the active combinations whose every table is free and whose range holds the party.`,
      body: { into: 'input' },
      example: {
        dataOra: '2026-12-24T20:00:00',
        numeroPersone: 4,
        durataMediaPasto: DURATA_MEDIA_PASTO_MINUTES.default,
      },
    },
    field: 'verificaDisponibilita',
  },
  {
    method: 'POST',
    path: '/api/tavoli',
    operation: 'CreateTavolo',
    docs: {
      summary: 'Create a table',
      description:
        'A `roomId` (`salaId`) that does not exist is a 400 naming `roomId`. `x` and `y` (the centre) lie inside the room: from 0 to its `width` and `height` (a 400 naming them otherwise).',
      body: { into: 'input' },
      example: { name: 'T1', seats: 4, posizione: 'finestra' },
    },
    field: 'createTavolo',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/tavoli/:id',
    operation: 'GetTavolo',
    docs: { summary: 'Read one table' },
    field: 'tavolo',
    notFound: 'Tavolo',
    cache: TAVOLI_READS,
  },
  {
    method: 'PATCH',
    path: '/api/tavoli/:id',
    operation: 'UpdateTavolo',
    docs: {
      summary: 'Change a table',
      description:
        'With a `deviceId`, refused while another device holds the lock. `x` and `y` (the centre) lie inside the room: from 0 to its `width` and `height` (a 400 naming them otherwise).',
      body: { into: 'input' },
      errors: ['LOCK_CONFLICT'],
      example: { seats: 6 },
    },
    field: 'updateTavolo',
  },
  {
    method: 'DELETE',
    path: '/api/tavoli/:id',
    operation: 'DeleteTavolo',
    docs: {
      summary: 'Delete a table',
      description: 'Refused (409 IN_USE) while future active bookings use the table.',
      errors: ['IN_USE'],
    },
    field: 'deleteTavolo',
  },
  {
    method: 'PUT',
    path: '/api/tavoli/:id/status',
    operation: 'SetTavoloStatus',
    docs: {
      summary: 'Set the status of a table',
      description:
        'Any of the six statuses, from any status; `free` clears orderId, pax and totalAmount. Publishes `tables.status`.',
      body: { into: 'input' },
      errors: ['LOCK_CONFLICT'],
      example: { status: 'occupied', pax: 4, deviceId: 'tablet-1' },
    },
    field: 'setTavoloStatus',
  },
  {
    method: 'POST',
    path: '/api/tavoli/:id/lock',
    operation: 'LockTavolo',
    docs: {
      summary: 'Lock a table for a device',
      description: `\`ttl\` ${LOCK_TTL_SECONDS.min}..${LOCK_TTL_SECONDS.max} s (default ${LOCK_TTL_SECONDS.default}); the holder re-locking refreshes the ttl.`,
      body: { into: 'input' },
      errors: ['LOCK_CONFLICT'],
      example: { deviceId: 'tablet-1', operatorName: 'Marco', ttl: LOCK_TTL_SECONDS.default },
    },
    field: 'lockTavolo',
  },
  {
    method: 'POST',
    path: '/api/tavoli/:id/unlock',
    operation: 'UnlockTavolo',
    docs: {
      summary: 'Release the lock held by a device',
      body: { into: 'input' },
      errors: ['LOCK_NOT_OWNED'],
      example: { deviceId: 'tablet-1' },
    },
    field: 'unlockTavolo',
  },
  {
    method: 'DELETE',
    path: '/api/tavoli/:id/lock',
    operation: 'ForceUnlockTavolo',
    docs: { summary: 'Release any lock (administrator)', errors: ['FORBIDDEN'] },
    field: 'forceUnlockTavolo',
  },
]);
