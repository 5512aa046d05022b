import { Kind, parse } from 'graphql';
import { READ_SCOPES } from '@coperto/cache';
import { SALA_FIELDS, TAVOLO_FIELDS } from '../../rest/generated/fragments.js';

/**
 * The fields a cached `/graphql` answer may select, by type, each with the read scope whose writes change it
 * (its owner replaces the scope's version before acknowledging a write: packages/cache/src/read-scope.ts).
 * Only stored data of rooms and tables is here: a room's and a table's fields are those the REST facade answers
 * (the named fragments SalaFields and TavoloFields, one list each), plus the links between the two. Everything
 * else is read afresh every time: bookings and everything of prenotazione, availability, combinations, table
 * locks (a lock expires without any write, so its answer changes on the clock), introspection, and every
 * mutation or subscription field.
 */
const CHANGES_ON_THE_CLOCK = new Set(['lock']);

/** The fields the first fragment of `fragmentText` selects at its top level, less the ones that change on the clock. */
function storedFieldsOf(fragmentText: string): string[] {
  const [fragment] = parse(fragmentText, { noLocation: true }).definitions;
  if (fragment?.kind !== Kind.FRAGMENT_DEFINITION) throw new Error('not a fragment definition');
  return fragment.selectionSet.selections.flatMap((s) =>
    s.kind === Kind.FIELD && !CHANGES_ON_THE_CLOCK.has(s.name.value) ? [s.name.value] : [],
  );
}

const scoped = (scope: string, fields: readonly string[]) => fields.map((f) => [f, scope] as const);

export const CACHEABLE_FIELDS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'Query',
    new Map([
      ...scoped(READ_SCOPES.rooms, ['sale', 'sala']),
      ...scoped(READ_SCOPES.tables, ['tavoli', 'tavolo']),
    ]),
  ],
  // A room's tables are table data (the tavolo subgraph resolves them); a table's room is the table's reference.
  ['Sala', new Map(scoped(READ_SCOPES.rooms, storedFieldsOf(SALA_FIELDS))).set('tavoli', READ_SCOPES.tables)],
  ['Tavolo', new Map(scoped(READ_SCOPES.tables, [...storedFieldsOf(TAVOLO_FIELDS), 'sala']))],
]);
