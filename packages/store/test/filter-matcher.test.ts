import { describe, expect, it } from 'vitest';
import { matchesFilter, validateFilter } from '../src/filter-matcher.js';
import type { Filter } from '../src/types.js';

const doc = {
  id: 'p1',
  name: 'Tavolo',
  covers: 4,
  price: 12.5,
  code: '10',
  active: true,
  note: null,
  tags: ['window', 'quiet'],
  empty: [],
  scores: [3, 8, 12],
  matrix: [[1, 2], [3]],
  place: { room: 'A', floor: 0, geo: { x: 1 } },
  lines: [
    { sku: 'a', qty: 2, opts: ['hot'] },
    { sku: 'b', qty: 5 },
  ],
};

describe('matchesFilter', () => {
  const cases: Array<[string, Filter, boolean]> = [
    ['empty filter', {}, true],
    ['equal string', { name: 'Tavolo' }, true],
    ['different string', { name: 'tavolo' }, false],
    ['number never equals its string', { covers: '4' }, false],
    ['string never equals its number', { code: 10 }, false],
    ['boolean', { active: true }, true],
    ['null equals null', { note: null }, true],
    ['null equals missing', { nowhere: null }, true],
    ['null does not equal a value', { name: null }, false],
    ['array contains', { tags: 'quiet' }, true],
    ['array does not contain', { tags: 'loud' }, false],
    ['whole array, same order', { tags: ['window', 'quiet'] }, true],
    ['whole array, other order', { tags: ['quiet', 'window'] }, false],
    ['nested array element of an array', { matrix: [3] }, true],
    ['whole object, same fields and order', { place: { room: 'A', floor: 0, geo: { x: 1 } } }, true],
    ['whole object, other order', { place: { floor: 0, room: 'A', geo: { x: 1 } } }, false],
    ['whole object, subset', { place: { room: 'A' } }, false],
    ['dotted path', { 'place.room': 'A' }, true],
    ['deep dotted path', { 'place.geo.x': 1 }, true],
    ['dotted path into a scalar is missing', { 'name.length': null }, true],
    ['dotted path through an array of objects', { 'lines.sku': 'b' }, true],
    ['dotted path through arrays twice', { 'lines.opts': 'hot' }, true],
    ['array index', { 'tags.1': 'quiet' }, true],
    ['array index then field', { 'lines.1.qty': 5 }, true],
    ['array index out of range is missing', { 'tags.5': { $exists: false } }, true],
    ['$eq', { covers: { $eq: 4 } }, true],
    ['$eq array element', { scores: { $eq: 8 } }, true],
    ['$ne', { covers: { $ne: 4 } }, false],
    ['$ne on an array means no element equals', { tags: { $ne: 'quiet' } }, false],
    ['$ne on a missing field', { nowhere: { $ne: 1 } }, true],
    ['$ne null on a missing field', { nowhere: { $ne: null } }, false],
    ['$in', { covers: { $in: [2, 4] } }, true],
    ['$in with null matches missing', { nowhere: { $in: [null] } }, true],
    ['$in on an array field', { tags: { $in: ['loud', 'window'] } }, true],
    ['$in empty', { covers: { $in: [] } }, false],
    ['$nin', { covers: { $nin: [2, 4] } }, false],
    ['$nin on a missing field', { nowhere: { $nin: [1] } }, true],
    ['$gt number', { price: { $gt: 12 } }, true],
    ['$gt number (equal)', { price: { $gt: 12.5 } }, false],
    ['$gte number (equal)', { price: { $gte: 12.5 } }, true],
    ['$lt number', { covers: { $lt: 4 } }, false],
    ['$lte number', { covers: { $lte: 4 } }, true],
    ['$gt string with a number never matches', { code: { $gt: 1 } }, false],
    ['$lt number with a string never matches', { covers: { $lt: '9' } }, false],
    ['$gt string', { name: { $gt: 'Tav' } }, true],
    ['$lt string is code point order', { name: { $lt: 'tavolo' } }, true],
    ['$gt on a missing field', { nowhere: { $gt: 0 } }, false],
    ['$gt on a null field', { note: { $gte: 0 } }, false],
    ['$gt boolean', { active: { $gt: false } }, true],
    ['range on one field', { covers: { $gt: 2, $lt: 6 } }, true],
    ['range needs every bound', { covers: { $gt: 2, $lt: 3 } }, false],
    ['range on an array: any element per bound', { scores: { $gt: 10, $lt: 4 } }, true],
    ['$exists true on a null value', { note: { $exists: true } }, true],
    ['$exists true on a missing field', { nowhere: { $exists: true } }, false],
    ['$exists false', { nowhere: { $exists: false } }, true],
    ['$exists through an array of objects', { 'lines.opts': { $exists: true } }, true],
    ['$size', { tags: { $size: 2 } }, true],
    ['$size 0', { empty: { $size: 0 } }, true],
    ['$size on a scalar', { covers: { $size: 1 } }, false],
    ['$elemMatch on values', { scores: { $elemMatch: { $gt: 5, $lt: 10 } } }, true],
    ['$elemMatch needs one element for all', { scores: { $elemMatch: { $gt: 10, $lt: 4 } } }, false],
    ['$elemMatch on objects', { lines: { $elemMatch: { sku: 'a', qty: { $gte: 2 } } } }, true],
    ['$elemMatch on objects, no single element', { lines: { $elemMatch: { sku: 'a', qty: 5 } } }, false],
    ['$elemMatch with $or', { lines: { $elemMatch: { $or: [{ sku: 'z' }, { qty: 5 }] } } }, true],
    ['$elemMatch on a non-array', { place: { $elemMatch: { room: 'A' } } }, false],
    ['$not', { covers: { $not: { $gt: 5 } } }, true],
    ['$not matches a missing field', { nowhere: { $not: { $gt: 5 } } }, true],
    ['$not of $elemMatch', { lines: { $not: { $elemMatch: { qty: { $gt: 10 } } } } }, true],
    ['$and', { $and: [{ covers: 4 }, { name: 'Tavolo' }] }, true],
    ['$and with one false', { $and: [{ covers: 4 }, { name: 'X' }] }, false],
    ['$or', { $or: [{ covers: 5 }, { name: 'Tavolo' }] }, true],
    ['$or all false', { $or: [{ covers: 5 }, { name: 'X' }] }, false],
    ['$or inside $and', { $and: [{ $or: [{ covers: 5 }, { active: true }] }, { 'place.room': 'A' }] }, true],
    ['several fields are all required', { covers: 4, name: 'X' }, false],
    ['inherited properties are not fields', { constructor: { $exists: true } }, false],
  ];
  it.each(cases)('%s', (_label, filter, expected) => {
    validateFilter(filter);
    expect(matchesFilter(doc, filter)).toBe(expected);
  });
});

describe('validateFilter', () => {
  const refused: Array<[string, unknown]> = [
    ['not an object', 'x'],
    ['an array', []],
    ['unknown top-level operator', { $nor: [{ a: 1 }] }],
    ['$where', { $where: 'true' }],
    ['unknown field operator', { a: { $regex: 'x' } }],
    ['operators mixed with fields', { a: { $gt: 1, b: 2 } }],
    ['$in needs an array', { a: { $in: 'x' } }],
    ['$nin needs an array', { a: { $nin: 1 } }],
    ['$gt with an object', { a: { $gt: { b: 1 } } }],
    ['$gt with null', { a: { $gt: null } }],
    ['$exists needs a boolean', { a: { $exists: 1 } }],
    ['$size needs a non-negative integer', { a: { $size: -1 } }],
    ['$size fraction', { a: { $size: 1.5 } }],
    ['$elemMatch needs an object', { a: { $elemMatch: 1 } }],
    ['$not needs operators', { a: { $not: 1 } }],
    ['$not with a literal object', { a: { $not: { b: 1 } } }],
    ['$and needs a non-empty array', { $and: [] }],
    ['$or needs filters', { $or: [1] }],
    ['nested invalid filter', { $or: [{ a: { $foo: 1 } }] }],
    ['empty path segment', { 'a..b': 1 }],
    ['__proto__ path', { '__proto__.x': 1 }],
    ['undefined condition', { a: undefined }],
  ];
  it.each(refused)('refuses %s', (_label, filter) => {
    expect(() => validateFilter(filter)).toThrow(TypeError);
  });

  it('accepts every documented form', () => {
    const filter: Filter = {
      a: 1,
      'b.c': { $eq: null, $ne: 2, $in: [1], $nin: [2], $gt: 0, $gte: 0, $lt: 9, $lte: 9, $exists: true },
      d: { $size: 0 },
      e: { $elemMatch: { $gt: 1 } },
      f: { $elemMatch: { g: 1, $or: [{ h: 1 }] } },
      i: { $not: { $in: [1] } },
      $and: [{ j: 1 }],
      $or: [{ k: 1 }, { l: { m: 1 } }],
    };
    expect(() => validateFilter(filter)).not.toThrow();
  });
});
