import { describe, expect, it } from 'vitest';
import { ValidationError } from '@coperto/errors';
import {
  checkGeometry,
  geometryOf,
  mergeGeometry,
  placeTable,
  touchesGeometry,
  type GeometryInput,
} from '../src/tables/geometry.js';

const room = { id: 'r1', width: 400, height: 300 };
const fieldsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => i.field);
    throw error;
  }
  return [];
};

describe('table geometry', () => {
  it('fills the defaults for a record without geometry', () => {
    expect(geometryOf({})).toEqual({ x: null, y: null, width: 80, height: 80, shape: 'rect', rotation: 0 });
  });

  it('applies only the fields an input sets; null restores a default or un-places', () => {
    const current = { x: 10, y: 20, width: 100, height: 50, shape: 'round' as const, rotation: 90 };
    expect(mergeGeometry(current, { x: 30 })).toEqual({ ...current, x: 30 });
    expect(mergeGeometry(current, { width: null, shape: null, rotation: null })).toEqual({
      ...current,
      width: 80,
      shape: 'rect',
      rotation: 0,
    });
    expect(mergeGeometry(current, { x: null, y: null })).toMatchObject({ x: null, y: null, width: 100 });
    expect(touchesGeometry({})).toBe(false);
    expect(touchesGeometry({ rotation: 0 })).toBe(true);
  });

  it('accepts centres on the room edges and refuses them outside, naming the field', () => {
    expect(fieldsOf(() => checkGeometry(geometryOf({ x: 0, y: 300 }), room))).toEqual([]);
    expect(fieldsOf(() => checkGeometry(geometryOf({ x: 400.5, y: 10 }), room))).toEqual(['x']);
    expect(fieldsOf(() => checkGeometry(geometryOf({ x: 10, y: -1 }), room))).toEqual(['y']);
    expect(fieldsOf(() => checkGeometry(geometryOf({ x: 9999, y: 9999 }), null))).toEqual([]);
  });

  it('refuses half a position, bad sizes, shapes and rotations', () => {
    expect(fieldsOf(() => placeTable({}, { x: 10 }, room))).toEqual(['y']);
    expect(fieldsOf(() => placeTable({}, { width: 0, height: 20_000 }, room))).toEqual(['width', 'height']);
    expect(fieldsOf(() => placeTable({}, { rotation: 360 }, room))).toEqual(['rotation']);
    const unknownShape: GeometryInput = JSON.parse('{ "shape": "oval" }');
    expect(fieldsOf(() => placeTable({}, unknownShape, room))).toEqual(['shape']);
  });
});
