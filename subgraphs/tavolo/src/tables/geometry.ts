import type { Viewer } from '@coperto/auth';
import { ValidationError } from '@coperto/errors';
import { InputChecks } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import type { TableShape } from '../generated/resolvers-types.js';
import { SalaSizeDocument } from '../generated/sala-calls.js';

/** Table shapes on the floor plan: schema.graphql's enum TableShape, each of its values once. */
const SHAPES: Readonly<Record<TableShape, true>> = { round: true, rect: true };
export const TABLE_SHAPES = Object.keys(SHAPES) as readonly TableShape[];
export type { TableShape } from '../generated/resolvers-types.js';

export const DEFAULT_TABLE_WIDTH = 80;
export const DEFAULT_TABLE_HEIGHT = 80;
export const DEFAULT_TABLE_SHAPE: TableShape = 'rect';
/** Largest table side accepted (room units), a sanity bound. */
export const MAX_TABLE_SIDE = 10_000;

/**
 * Where a table stands on its room's floor plan (docs/floor-plan.md): `x`, `y` are the table's centre in
 * the room's units (both null: not placed yet), `rotation` in whole degrees 0..359.
 */
export interface TableGeometry {
  x: number | null;
  y: number | null;
  width: number;
  height: number;
  shape: TableShape;
  rotation: number;
}

/** The geometry fields of a create or patch input (absent: unchanged; null on x/y: not placed). */
export interface GeometryInput {
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
  shape?: TableShape | null;
  rotation?: number | null;
}

export interface RoomSize {
  id: string;
  width: number;
  height: number;
}

export const GEOMETRY_FIELDS = ['x', 'y', 'width', 'height', 'shape', 'rotation'] as const;

/** A stored table's geometry, defaults filled in for records written before tables had one. */
export function geometryOf(record: Partial<TableGeometry>): TableGeometry {
  return {
    x: record.x ?? null,
    y: record.y ?? null,
    width: record.width ?? DEFAULT_TABLE_WIDTH,
    height: record.height ?? DEFAULT_TABLE_HEIGHT,
    shape: record.shape ?? DEFAULT_TABLE_SHAPE,
    rotation: record.rotation ?? 0,
  };
}

/** True when the input sets any geometry field. */
export function touchesGeometry(input: GeometryInput): boolean {
  return GEOMETRY_FIELDS.some((field) => input[field] !== undefined);
}

/** `current` with the input applied (pure); null width/height/shape/rotation fall back to the defaults. */
export function mergeGeometry(current: Partial<TableGeometry>, input: GeometryInput): TableGeometry {
  const base = geometryOf(current);
  return {
    x: input.x !== undefined ? input.x : base.x,
    y: input.y !== undefined ? input.y : base.y,
    width: input.width !== undefined ? (input.width ?? DEFAULT_TABLE_WIDTH) : base.width,
    height: input.height !== undefined ? (input.height ?? DEFAULT_TABLE_HEIGHT) : base.height,
    shape: input.shape !== undefined ? (input.shape ?? DEFAULT_TABLE_SHAPE) : base.shape,
    rotation: input.rotation !== undefined ? (input.rotation ?? 0) : base.rotation,
  };
}

/**
 * Checks a table's geometry (pure): sizes positive, rotation 0..359, x and y set together, and the centre
 * inside the room (0..width, 0..height) when the table has one. Throws VALIDATION_FAILED naming the fields.
 */
export function checkGeometry(geometry: TableGeometry, room: RoomSize | null): void {
  const checks = new InputChecks().intInRange('rotation', geometry.rotation, 0, 359);
  for (const side of ['width', 'height'] as const) {
    const value = geometry[side];
    if (!Number.isFinite(value) || value <= 0 || value > MAX_TABLE_SIDE) {
      checks.add(side, `must be a number above 0 and at most ${MAX_TABLE_SIDE}`);
    }
  }
  if (!TABLE_SHAPES.includes(geometry.shape))
    checks.add('shape', `must be one of ${TABLE_SHAPES.join(', ')}`);
  if ((geometry.x === null) !== (geometry.y === null)) {
    checks.add(geometry.x === null ? 'x' : 'y', 'x and y are set together (both null: not placed)');
  }
  const inside = (field: 'x' | 'y', value: number | null, max: number) => {
    if (value === null) return;
    if (!Number.isFinite(value) || value < 0 || value > max) {
      checks.add(
        field,
        room
          ? `must be from 0 to ${max} (the room ${room.id} is ${room.width} × ${room.height})`
          : 'must be 0 or more',
      );
    }
  };
  inside('x', geometry.x, room ? room.width : Number.MAX_SAFE_INTEGER);
  inside('y', geometry.y, room ? room.height : Number.MAX_SAFE_INTEGER);
  checks.throwIfAny();
}

/** The input applied to the table's geometry, checked against its room (null: no room). */
export function placeTable(
  current: Partial<TableGeometry>,
  input: GeometryInput,
  room: RoomSize | null,
): TableGeometry {
  const geometry = mergeGeometry(current, input);
  checkGeometry(geometry, room);
  return geometry;
}

/** The room's size from the sala subgraph (its API, as the caller); VALIDATION_FAILED on roomId when missing. */
export async function requireRoomSize(
  subgraphs: SubgraphClient,
  viewer: Viewer,
  salaId: string,
): Promise<RoomSize> {
  const { sala } = await subgraphs.request(
    'sala',
    SalaSizeDocument,
    { id: salaId },
    `Bearer ${viewer.token}`,
  );
  // The seed's answer: a body naming a room that does not exist (any more) is a 400 naming roomId (404 is for
  // the resource the URL names).
  if (!sala) throw new ValidationError([{ field: 'roomId', message: `room ${salaId} does not exist` }]);
  return sala;
}
