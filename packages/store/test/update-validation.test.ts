import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/json-values.js';
import type { Filter, Update } from '../src/types.js';
import { upsertId, upsertSeed, validateUpdate } from '../src/update-validation.js';

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
