import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/json-values.js';
import type { Filter, Update } from '../src/types.js';
import { applyUpdate, upsertId, upsertSeed, validateUpdate } from '../src/update-applier.js';

const base = (): JsonObject => ({
  id: 'r',
  n: 1,
  name: 'x',
  tags: ['a', 'b', 'a'],
  scores: [1, 5, 9],
  lines: [
    { sku: 'p', qty: 1 },
    { sku: 'q', qty: 2 },
  ],
  place: { room: 'A' },
});

describe('applyUpdate', () => {
  const cases: Array<[string, Update, JsonObject]> = [
    ['$set a field', { $set: { name: 'y' } }, { name: 'y' }],
    ['$set a new field', { $set: { extra: [1, { a: null }] } }, { extra: [1, { a: null }] }],
    ['$set a dotted path in an object', { $set: { 'place.room': 'B' } }, { place: { room: 'B' } }],
    ['$set creates missing objects', { $set: { 'a.b.c': 1 } }, { a: { b: { c: 1 } } }],
    ['$set an array element', { $set: { 'tags.1': 'z' } }, { tags: ['a', 'z', 'a'] }],
    ['$set past the end pads with null', { $set: { 'tags.4': 'e' } }, { tags: ['a', 'b', 'a', null, 'e'] }],
    [
      '$set a field of an array element',
      { $set: { 'lines.0.qty': 7 } },
      {
        lines: [
          { sku: 'p', qty: 7 },
          { sku: 'q', qty: 2 },
        ],
      },
    ],
    ['$unset a field', { $unset: { name: '' } }, { name: undefined }],
    ['$unset a dotted path', { $unset: { 'place.room': 1 } }, { place: {} }],
    ['$unset a missing path', { $unset: { 'no.where': '' } }, {}],
    ['$unset an array element sets null', { $unset: { 'tags.0': '' } }, { tags: [null, 'b', 'a'] }],
    ['$inc', { $inc: { n: 2 } }, { n: 3 }],
    ['$inc negative and fractional', { $inc: { n: -1.5 } }, { n: -0.5 }],
    ['$inc a missing field', { $inc: { 'stats.count': 1 } }, { stats: { count: 1 } }],
    ['$push a value', { $push: { tags: 'c' } }, { tags: ['a', 'b', 'a', 'c'] }],
    ['$push an array as one value', { $push: { tags: ['c'] } }, { tags: ['a', 'b', 'a', ['c']] }],
    ['$push $each', { $push: { tags: { $each: ['c', 'd'] } } }, { tags: ['a', 'b', 'a', 'c', 'd'] }],
    ['$push to a missing field', { $push: { fresh: { k: 1 } } }, { fresh: [{ k: 1 }] }],
    ['$pull a value (all occurrences)', { $pull: { tags: 'a' } }, { tags: ['b'] }],
    ['$pull by condition', { $pull: { scores: { $gte: 5 } } }, { scores: [1] }],
    ['$pull objects by filter', { $pull: { lines: { qty: { $gt: 1 } } } }, { lines: [{ sku: 'p', qty: 1 }] }],
    [
      '$pull objects by equality on a subset',
      { $pull: { lines: { sku: 'p' } } },
      { lines: [{ sku: 'q', qty: 2 }] },
    ],
    ['$pull from a missing field', { $pull: { nothing: 1 } }, {}],
    ['$setOnInsert ignored on update', { $setOnInsert: { created: 't' } }, {}],
    [
      'several operators',
      { $set: { name: 'z' }, $inc: { n: 1 }, $push: { tags: 'c' } },
      { name: 'z', n: 2, tags: ['a', 'b', 'a', 'c'] },
    ],
  ];
  it.each(cases)('%s', (_label, update, changes) => {
    validateUpdate(update);
    const expected: JsonObject = { ...base(), ...changes };
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete expected[key];
    expect(applyUpdate(base(), update)).toEqual(expected);
  });

  it('applies $setOnInsert when inserting', () => {
    expect(
      applyUpdate({ id: 'n' }, { $set: { a: 1 }, $setOnInsert: { created: 't' } }, { inserting: true }),
    ).toEqual({
      id: 'n',
      a: 1,
      created: 't',
    });
  });

  it('leaves the input untouched and shares nothing with it', () => {
    const input = base();
    const operand = { deep: [1] };
    const output = applyUpdate(input, { $set: { extra: operand }, $push: { tags: 'c' } });
    operand.deep.push(2);
    expect(input).toEqual(base());
    expect(output.extra).toEqual({ deep: [1] });
    expect(output.place).not.toBe(input.place);
  });

  const impossible: Array<[string, Update]> = [
    ['$inc on a string', { $inc: { name: 1 } }],
    ['$push on a non-array', { $push: { name: 'x' } }],
    ['$pull on a non-array', { $pull: { name: 'x' } }],
    ['$set through a scalar', { $set: { 'name.first': 'x' } }],
    ['$set a named field of an array', { $set: { 'tags.first': 'x' } }],
  ];
  it.each(impossible)('throws a TypeError for %s', (_label, update) => {
    validateUpdate(update);
    expect(() => applyUpdate(base(), update)).toThrow(TypeError);
  });
});

describe('validateUpdate', () => {
  const refused: Array<[string, unknown]> = [
    ['not an object', null],
    ['an unknown operator', { $rename: { a: 'b' } }],
    ['a replacement document', { name: 'x' }],
    ['an operator that is not an object', { $set: 1 }],
    ['$inc with a string', { $inc: { n: '1' } }],
    ['$inc with Infinity', { $inc: { n: Number.POSITIVE_INFINITY } }],
    ['$set with a Date', { $set: { at: new Date() } }],
    ['$set with NaN', { $set: { n: Number.NaN } }],
    ['$set with a key containing a dot', { $set: { a: { 'b.c': 1 } } }],
    ['$set undefined', { $set: { a: undefined } }],
    ['$push $each with another modifier', { $push: { a: { $each: [1], $slice: 2 } } }],
    ['$push $each that is not an array', { $push: { a: { $each: 1 } } }],
    ['$pull with an unknown operator', { $pull: { a: { $regex: 'x' } } }],
    ['the same path twice', { $set: { a: 1 }, $inc: { a: 1 } }],
    ['a path and its parent', { $set: { 'a.b': 1 }, $unset: { a: '' } }],
    ['an empty path segment', { $set: { 'a..b': 1 } }],
    ['__proto__', { $set: { '__proto__.polluted': true } }],
  ];
  it.each(refused)('refuses %s', (_label, update) => {
    expect(() => validateUpdate(update)).toThrow(TypeError);
  });

  it('refuses protected fields, except those $setOnInsert may give', () => {
    expect(() => validateUpdate({ $set: { id: 'x' } }, ['id', 'tenantId'])).toThrow(TypeError);
    expect(() => validateUpdate({ $unset: { 'tenantId.x': '' } }, ['id', 'tenantId'])).toThrow(TypeError);
    expect(() => validateUpdate({ $setOnInsert: { tenantId: 'x' } }, ['id', 'tenantId'], ['id'])).toThrow(
      TypeError,
    );
    expect(() => validateUpdate({ $setOnInsert: { id: 'x' } }, ['id', 'tenantId'], ['id'])).not.toThrow();
  });

  it('does not pollute prototypes even when applied unvalidated', () => {
    expect(() => applyUpdate({}, { $set: { '__proto__.polluted': true } })).toThrow(TypeError);
    expect(({} as JsonObject).polluted).toBeUndefined();
  });
});

describe('upsertSeed and upsertId', () => {
  const seeds: Array<[string, Filter, JsonObject]> = [
    ['plain equalities', { id: 'a', kind: 'k', n: 1 }, { id: 'a', kind: 'k', n: 1 }],
    ['$eq counts as equality', { kind: { $eq: 'k' } }, { kind: 'k' }],
    ['other operators seed nothing', { n: { $gt: 1 }, m: { $in: [1] }, o: { $eq: 1, $ne: 2 } }, {}],
    [
      'dotted paths become objects',
      { 'place.room': 'A', 'place.floor': 1 },
      { place: { room: 'A', floor: 1 } },
    ],
    ['inside $and', { $and: [{ a: 1 }, { $and: [{ b: 2 }] }] }, { a: 1, b: 2 }],
    ['not inside $or', { $or: [{ a: 1 }, { b: 2 }], c: 3 }, { c: 3 }],
    ['an object literal', { place: { room: 'A' } }, { place: { room: 'A' } }],
  ];
  it.each(seeds)('seeds from %s', (_label, filter, expected) => {
    expect(upsertSeed(filter)).toEqual(expected);
  });

  it('takes the id from the filter or $setOnInsert, and refuses two different or non-string ids', () => {
    expect(upsertId({ id: 'a' }, {})).toBe('a');
    expect(upsertId({ id: { $eq: 'a' } }, { $setOnInsert: { id: 'a' } })).toBe('a');
    expect(upsertId({ kind: 'k' }, { $setOnInsert: { id: 'b' } })).toBe('b');
    expect(upsertId({ id: { $in: ['a'] } }, {})).toBeUndefined();
    expect(() => upsertId({ id: 'a' }, { $setOnInsert: { id: 'b' } })).toThrow(TypeError);
    expect(() => upsertId({ id: 5 }, {})).toThrow(TypeError);
    expect(() => upsertId({}, { $setOnInsert: { id: '' } })).toThrow(TypeError);
  });
});
