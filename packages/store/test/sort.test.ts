import { describe, expect, it } from 'vitest';
import { page, sortDocuments, sortKey, validatePaging, validateSort } from '../src/sort.js';

describe('sortDocuments', () => {
  const docs = [
    { id: 'a', v: 'b' },
    { id: 'b', v: 2 },
    { id: 'c' },
    { id: 'd', v: null },
    { id: 'e', v: true },
    { id: 'f', v: { x: 1 } },
    { id: 'g', v: 10 },
    { id: 'h', v: 'a' },
    { id: 'i', v: [5, 1] },
  ];

  it('orders types as BSON does: null and missing, numbers, strings, objects, booleans', () => {
    expect(sortDocuments(docs, { v: 1 }).map((doc) => doc.id)).toEqual([
      'c',
      'd',
      'i',
      'b',
      'g',
      'h',
      'a',
      'f',
      'e',
    ]);
  });

  it('sorts arrays by their smallest element ascending and largest descending', () => {
    const sorted = sortDocuments(docs, { v: -1 }).map((doc) => doc.id);
    expect(sorted).toEqual(['e', 'f', 'a', 'h', 'g', 'i', 'b', 'c', 'd']);
  });

  it('breaks ties by id and uses later keys first', () => {
    const rows = [
      { id: 'z', g: 1, n: 2 },
      { id: 'y', g: 1, n: 1 },
      { id: 'x', g: 0, n: 2 },
      { id: 'w', g: 1, n: 2 },
    ];
    expect(sortDocuments(rows, { g: -1, n: 1 }).map((row) => row.id)).toEqual(['y', 'w', 'z', 'x']);
    expect(sortDocuments(rows, { g: 1 }).map((row) => row.id)).toEqual(['x', 'w', 'y', 'z']);
  });

  it('sorts by dotted paths, through arrays of objects', () => {
    const rows = [
      { id: 'a', lines: [{ q: 5 }, { q: 1 }] },
      { id: 'b', lines: [{ q: 3 }] },
      { id: 'c', place: { floor: 2 } },
    ];
    expect(sortKey(rows[0], 'lines.q', 1)).toBe(1);
    expect(sortKey(rows[0], 'lines.q', -1)).toBe(5);
    expect(sortDocuments(rows, { 'lines.q': 1 }).map((row) => row.id)).toEqual(['c', 'a', 'b']);
    expect(sortDocuments(rows, { 'lines.q': -1 }).map((row) => row.id)).toEqual(['a', 'b', 'c']);
  });

  it('compares strings by code point (UTF-8 order), not by UTF-16 unit', () => {
    const rows = [
      { id: '1', s: '\u{1F600}' },
      { id: '2', s: '\uFF5E' },
    ];
    expect(sortDocuments(rows, { s: 1 }).map((row) => row.id)).toEqual(['2', '1']);
  });

  it('does not change its input', () => {
    const input = [{ id: 'b' }, { id: 'a' }];
    sortDocuments(input, { id: 1 });
    expect(input.map((doc) => doc.id)).toEqual(['b', 'a']);
  });
});

describe('page', () => {
  const all = [1, 2, 3, 4, 5];
  const cases: Array<[{ skip?: number; limit?: number }, number[]]> = [
    [{}, [1, 2, 3, 4, 5]],
    [{ limit: 2 }, [1, 2]],
    [{ skip: 2 }, [3, 4, 5]],
    [{ skip: 2, limit: 2 }, [3, 4]],
    [{ skip: 4, limit: 2 }, [5]],
    [{ skip: 9 }, []],
    [{ limit: 0 }, [1, 2, 3, 4, 5]],
  ];
  it.each(cases)('%o', (options, expected) => {
    expect(page(all, options)).toEqual(expected);
  });
});

describe('validation', () => {
  it('refuses bad sorts and paging', () => {
    expect(() => validateSort({ a: 2 })).toThrow(TypeError);
    expect(() => validateSort({ a: 'asc' })).toThrow(TypeError);
    expect(() => validateSort({ '': 1 })).toThrow(TypeError);
    expect(() => validateSort([])).toThrow(TypeError);
    expect(() => validatePaging({ skip: -1 })).toThrow(TypeError);
    expect(() => validatePaging({ limit: 1.5 })).toThrow(TypeError);
    expect(() => validateSort({ a: 1, 'b.c': -1 })).not.toThrow();
    expect(() => validatePaging({ skip: 0, limit: 10 })).not.toThrow();
  });
});
