import { describe, expect, it } from 'vitest';
import { validateFilter } from '../src/filter-validation.js';
import type { Filter } from '../src/types.js';

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
