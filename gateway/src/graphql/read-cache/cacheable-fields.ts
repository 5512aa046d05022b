import { READ_SCOPES } from '@coperto/cache';

/**
 * The fields a cached `/graphql` answer may select, by type, each with the read scope whose writes change it
 * (its owner replaces the scope's version before acknowledging a write: packages/cache/src/read-scope.ts).
 * Only stored data of rooms and tables is here. Everything else is read afresh every time: bookings and
 * everything of prenotazione, availability, combinations, table locks (a lock expires without any write, so
 * its answer changes on the clock), introspection, and every mutation or subscription field.
 */
const TABLE_FIELDS = [
  'id',
  'nome',
  'name',
  'capacita',
  'seats',
  'stato',
  'status',
  'salaId',
  'roomId',
  'sala',
  'attivo',
  'posizione',
  'x',
  'y',
  'width',
  'height',
  'shape',
  'rotation',
  'orderId',
  'pax',
  'totalAmount',
  'createdAt',
  'updatedAt',
] as const;

const ROOM_FIELDS = [
  'id',
  'codice',
  'descrizione',
  'name',
  'width',
  'height',
  'createdAt',
  'updatedAt',
] as const;

const scoped = (scope: string, fields: readonly string[]) => fields.map((f) => [f, scope] as const);

export const CACHEABLE_FIELDS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'Query',
    new Map([
      ...scoped(READ_SCOPES.rooms, ['sale', 'sala']),
      ...scoped(READ_SCOPES.tables, ['tavoli', 'tavolo']),
    ]),
  ],
  ['Sala', new Map([...scoped(READ_SCOPES.rooms, ROOM_FIELDS), ['tavoli', READ_SCOPES.tables]])],
  ['Tavolo', new Map(scoped(READ_SCOPES.tables, TABLE_FIELDS))],
]);
