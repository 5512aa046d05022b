import { describe, expect, it } from 'vitest';
import { applyUpdate } from '../src/embedded-update.js';
import type { JsonObject } from '../src/json-values.js';
import type { Update } from '../src/types.js';

const base = (): JsonObject => ({
  id: 'r',
  n: 1,
  name: 'x',
  none: null,
  tags: ['a', 'b'],
  lines: [{ sku: 'p', qty: 1 }],
});

describe('applyUpdate (mingo, behind the store’s guard)', () => {
  const refused: Array<[string, Update]> = [
    ['$inc on a string', { $inc: { name: 1 } }],
    ['$inc on null', { $inc: { none: 1 } }],
    ['$push on a non-array', { $push: { name: 'x' } }],
    ['$pull on a non-array', { $pull: { name: 'x' } }],
    ['$set through a scalar', { $set: { 'name.first': 'x' } }],
    ['$set through null (mingo would replace it with an object)', { $set: { 'none.first': 'x' } }],
    ['$set a named field of an array', { $set: { 'tags.first': 'x' } }],
    ['$set a field through an array of objects without an index', { $set: { 'lines.sku': 'x' } }],
  ];
  it.each(refused)('refuses %s with a TypeError, as MongoDB refuses it', (_label, update) => {
    expect(() => applyUpdate(base(), update)).toThrow(TypeError);
  });

  const allowed: Array<[string, Update, JsonObject]> = [
    ['$unset through a scalar does nothing', { $unset: { 'name.first': '' } }, base()],
    ['$pull through a scalar does nothing', { $pull: { 'name.first': 'x' } }, base()],
    ['$unset a named field of an array does nothing', { $unset: { 'tags.first': '' } }, base()],
    ['$pull a named field of an array does nothing', { $pull: { 'tags.first': 'a' } }, base()],
    [
      '$inc through an array index',
      { $inc: { 'lines.0.qty': 2 } },
      { ...base(), lines: [{ sku: 'p', qty: 3 }] },
    ],
    ['$set deep into missing objects', { $set: { 'a.b.c': 1 } }, { ...base(), a: { b: { c: 1 } } }],
  ];
  it.each(allowed)('%s', (_label, update, expected) => {
    expect(applyUpdate(base(), update)).toEqual(expected);
  });

  it('applies $setOnInsert only when inserting', () => {
    const update: Update = { $set: { a: 1 }, $setOnInsert: { created: 't' } };
    expect(applyUpdate({ id: 'n' }, update, { inserting: true })).toEqual({ id: 'n', a: 1, created: 't' });
    expect(applyUpdate({ id: 'n' }, update)).toEqual({ id: 'n', a: 1 });
  });

  it('leaves the input untouched and shares nothing with it or with the operands', () => {
    const input = base();
    const operand = { deep: [1] };
    const output = applyUpdate(input, { $set: { extra: operand }, $push: { tags: 'c' } });
    operand.deep.push(2);
    expect(input).toEqual(base());
    expect(output.extra).toEqual({ deep: [1] });
    expect(output.lines).not.toBe(input.lines);
  });

  it('does not pollute prototypes even when applied unvalidated', () => {
    expect(() => applyUpdate({}, { $set: { '__proto__.polluted': true } })).toThrow(TypeError);
    expect(({} as JsonObject).polluted).toBeUndefined();
  });
});
