import { describe, expect, it } from 'vitest';
import { compileFilter } from '../src/embedded-filter.js';
import type { Filter } from '../src/types.js';

describe('compileFilter (mingo, in the store’s operator context)', () => {
  const outside: Array<[string, Filter]> = [
    ['$where', { $where: () => true }],
    ['$expr', { $expr: { $eq: ['$a', 1] } }],
    ['$nor', { $nor: [{ a: 1 }] }],
    ['$regex', { a: { $regex: 'x' } }],
    ['$all', { a: { $all: [1] } }],
    ['$type', { a: { $type: 'string' } }],
    ['$mod inside $or', { $or: [{ a: { $mod: [2, 0] } }] }],
  ];
  it.each(outside)('cannot reach mingo’s %s even without validation', (_label, filter) => {
    expect(() => compileFilter(filter)({ a: 'x' })).toThrow();
  });

  it('matches with the store’s equality: objects in field order', () => {
    const matches = compileFilter({ place: { city: 'Roma', zip: '00100' } });
    expect(matches({ place: { city: 'Roma', zip: '00100' } })).toBe(true);
    expect(matches({ place: { zip: '00100', city: 'Roma' } })).toBe(false);
  });
});
