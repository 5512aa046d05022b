// The generator of the REST facade's named fragments (scripts/codegen-rest-fragments.ts), on a small supergraph
// composed here: a fragment follows its type in the schema, less what its plan leaves out, and every name the
// plan gives must be in the schema.
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { restFragmentConstants, restFragmentsModule } from '../../scripts/codegen-rest-fragments.js';
import type { FragmentPlan } from '../src/rest/fragment-plan.js';

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';

const composed = new Map<string, string>();

/**
 * A room owned by `sala`, to which `agenda` (composed first: subgraphs are taken by name) adds its bookings.
 * `roomFields` are the room's own fields after its id.
 */
function supergraph(roomFields = 'name: String!\n seats: Int!\n secret: String\n lock: Lock'): string {
  const done = composed.get(roomFields);
  if (done) return done;
  const result = composeServices([
    {
      name: 'sala',
      url: 'http://sala',
      typeDefs: parse(`${LINK}
        type Query { room(id: ID!): Room, rooms: [Room!]! }
        type Room @key(fields: "id") { id: ID!\n ${roomFields} }
        type Lock { by: String!, until: String! }`),
    },
    {
      name: 'agenda',
      url: 'http://agenda',
      typeDefs: parse(`${LINK}
        type Query { today: [String!]! }
        type Room @key(fields: "id") { id: ID!, bookings(day: String!): [String!]!, nextBooking: String }`),
    },
  ]);
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  composed.set(roomFields, result.supergraphSdl);
  return result.supergraphSdl;
}

const reason = 'a reason';
const plan = (room: Partial<FragmentPlan> = {}): Record<string, FragmentPlan> => ({
  LockFields: { type: 'Lock' },
  RoomFields: {
    type: 'Room',
    leftOut: [{ fields: ['secret', 'bookings'], reason }],
    objects: { lock: 'LockFields' },
    ...room,
  },
});

/** The text of each generated fragment definition, by name. */
function blocks(sdl: string, fragments: Record<string, FragmentPlan>): Record<string, string> {
  return Object.fromEntries(
    restFragmentConstants(sdl, fragments).flatMap((constant) =>
      [constant.fragment, ...constant.inner].map((fragment) => [fragment.name, fragment.block]),
    ),
  );
}

/** The fields a fragment definition's text lists, one a line. */
const fieldsOf = (block: string) =>
  block
    .split('\n')
    .slice(1, -2)
    .map((line) => line.trim());

describe('the REST fragment generator', () => {
  it("selects every field but the ones left out: the type's own subgraph's first, then the others'", () => {
    expect(blocks(supergraph(), plan()).RoomFields).toBe(
      [
        '  fragment RoomFields on Room {',
        '    id',
        '    name',
        '    seats',
        '    lock {',
        '      ...LockFields',
        '    }',
        '    nextBooking',
        '  }',
        '',
      ].join('\n'),
    );
  });

  it('a field added to the type reaches its fragment with no edit to the plan, where the schema puts it', () => {
    const before = fieldsOf(blocks(supergraph(), plan()).RoomFields!);
    const after = fieldsOf(
      blocks(supergraph('name: String!\n capacity: Int\n seats: Int!\n secret: String\n lock: Lock'), plan())
        .RoomFields!,
    );
    expect(after).toEqual([...before.slice(0, 2), 'capacity', ...before.slice(2)]);
  });

  it('a field left out is not selected', () => {
    const selected = fieldsOf(
      blocks(supergraph(), plan({ leftOut: [{ fields: ['secret', 'bookings', 'seats'], reason }] }))
        .RoomFields!,
    );
    expect(selected).not.toContain('seats');
    expect(selected).toContain('name');
  });

  it('refuses a left-out name the type lacks, so the plan cannot rot', () => {
    expect(() =>
      blocks(supergraph(), plan({ leftOut: [{ fields: ['secret', 'bookings', 'gone'], reason }] })),
    ).toThrow('RoomFields names Room.gone, which the API schema lacks');
    // The field the plan leaves out removed from the schema: the same.
    expect(() => blocks(supergraph('name: String!\n seats: Int!\n lock: Lock'), plan())).toThrow(
      'RoomFields names Room.secret, which the API schema lacks',
    );
  });

  it('refuses a type, an object field or a fragment the schema or the plan lacks', () => {
    expect(() => blocks(supergraph(), { ...plan(), TableFields: { type: 'Table' } })).toThrow(
      'TableFields is on Table, which the API schema lacks',
    );
    expect(() => blocks(supergraph(), plan({ objects: { lock: 'LockFields', owner: {} } }))).toThrow(
      'RoomFields names Room.owner, which the API schema lacks',
    );
    expect(() => blocks(supergraph(), plan({ objects: { lock: 'LockInfo' } }))).toThrow(
      'RoomFields (Room.lock) takes LockInfo, which the plan lacks',
    );
  });

  it('refuses an object field the plan does not say how to select, and a field that needs arguments', () => {
    expect(() => blocks(supergraph(), plan({ objects: {} }))).toThrow(
      'RoomFields (Room.lock) is an object: name its fragment or selection in objects, or leave it out',
    );
    expect(() => blocks(supergraph(), plan({ leftOut: [{ fields: ['secret'], reason }] }))).toThrow(
      'RoomFields (Room.bookings) needs arguments: leave it out',
    );
  });

  it('selects an object field by a nested selection planned like a fragment', () => {
    const room = blocks(
      supergraph(),
      plan({ objects: { lock: { leftOut: [{ fields: ['until'], reason }] } } }),
    );
    expect(fieldsOf(room.RoomFields!)).toEqual(['id', 'name', 'seats', 'lock {', 'by', '}', 'nextBooking']);
  });

  it('extends a fragment with the fields that one leaves out', () => {
    const fragments = {
      ...plan(),
      RoomSecretFields: { type: 'Room', extends: 'RoomFields', leftOut: [{ fields: ['bookings'], reason }] },
    };
    expect(fieldsOf(blocks(supergraph(), fragments).RoomSecretFields!)).toEqual(['...RoomFields', 'secret']);
  });

  it('an extension selects an object field it adds by its planned fragment, and interpolates both constants', () => {
    const fragments = {
      ...plan({ leftOut: [{ fields: ['secret', 'bookings', 'lock'], reason }], objects: {} }),
      RoomLockFields: {
        type: 'Room',
        extends: 'RoomFields',
        leftOut: [{ fields: ['secret', 'bookings'], reason }],
        objects: { lock: 'LockFields' },
      },
    };
    expect(fieldsOf(blocks(supergraph(), fragments).RoomLockFields!)).toEqual([
      '...RoomFields',
      'lock {',
      '...LockFields',
      '}',
    ]);
    expect(restFragmentsModule(supergraph(), fragments)).toContain(
      '    }\n  }\n  ${ROOM_FIELDS}\n  ${LOCK_FIELDS}\n`;',
    );
  });

  it('writes an inner fragment out with the one constant that spreads it, and interpolates the others', () => {
    const module = restFragmentsModule(supergraph(), {
      ...plan(),
      LockFields: { type: 'Lock', inner: true },
    });
    expect(module).not.toContain('LOCK_FIELDS');
    expect(module).toMatch(
      /export const ROOM_FIELDS = \/\* GraphQL \*\/ `\n {2}fragment RoomFields[^`]*\n {2}fragment LockFields/,
    );

    const shared = restFragmentsModule(supergraph(), plan());
    // The constant it interpolates comes first (a module cannot read a constant before it is declared).
    expect(shared.indexOf('export const LOCK_FIELDS')).toBeLessThan(
      shared.indexOf('export const ROOM_FIELDS'),
    );
    expect(shared).toContain('    }\n    nextBooking\n  }\n  ${LOCK_FIELDS}\n`;');
  });

  it('refuses an inner fragment two constants spread (an operation spreading both would define it twice)', () => {
    const fragments = {
      ...plan(),
      LockFields: { type: 'Lock', inner: true } as const,
      OtherRoomFields: {
        type: 'Room',
        leftOut: [{ fields: ['bookings'], reason }],
        objects: { lock: 'LockFields' },
      },
    };
    expect(() => restFragmentsModule(supergraph(), fragments)).toThrow(
      'LockFields is inner but RoomFields and OtherRoomFields both spread it: give it its own constant',
    );
  });
});
