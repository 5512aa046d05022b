import { $inc, $pull, $push, $set, $unset } from 'mingo/operators/update';
import { isIndex, splitPath } from './field-paths.js';
import { copyJson, isPlainObject, type JsonObject } from './json-values.js';
import type { Update } from './types.js';

/**
 * The embedded adapter's update: a (validated, see update-validation.ts) Update applied by mingo's update
 * operators to a copy of the stored document. `$setOnInsert` applies only when `inserting`.
 *
 * Before mingo runs, `assertApplicable` refuses (TypeError) what MongoDB refuses: `$inc` on a non-number,
 * `$push`/`$pull` on a non-array, a path through a scalar or null, a named field of an array. mingo skips
 * those silently, and the write would then succeed (with its events) on the embedded adapter only.
 *
 * The operators are called one by one rather than through mingo's `update()`, which builds a fresh context
 * of every mingo operator on each call: about 120 µs per update against 20 µs (packages/store/README.md).
 */
const OPERATORS: Record<string, (fields: JsonObject) => (doc: JsonObject) => unknown> = {
  $set,
  $unset: (fields) => $unset(fields as Record<string, ''>),
  $inc: (fields) => $inc(fields as Record<string, number>), // validated: finite numbers
  $push,
  $pull,
};

export function applyUpdate(
  doc: JsonObject,
  update: Update,
  options: { inserting?: boolean } = {},
): JsonObject {
  const { $setOnInsert, ...modifier } = copyJson(update); // private: mingo copies operands one level deep only
  if (options.inserting && $setOnInsert) modifier.$set = { ...modifier.$set, ...$setOnInsert };
  const steps = Object.entries(modifier) as Array<[string, JsonObject]>;
  for (const [operator, fields] of steps) {
    for (const path of Object.keys(fields)) assertApplicable(doc, operator, path);
  }
  const result = copyJson(doc);
  try {
    for (const [operator, fields] of steps) OPERATORS[operator]!(fields)(result);
  } catch (error) {
    throw new TypeError(`Cannot apply the update: ${(error as Error).message}`, { cause: error });
  }
  return result;
}

/**
 * Operators that only change what exists: on a path MongoDB calls non-viable (through a scalar or null, or a
 * named field of an array) they do nothing, as in MongoDB; the others are refused there.
 */
const CHANGES_EXISTING = new Set(['$unset', '$pull']);

/** Throws a TypeError where MongoDB refuses `operator` on `path` of `doc`. */
function assertApplicable(doc: JsonObject, operator: string, path: string): void {
  const segments = splitPath(path);
  let current: unknown = doc;
  for (const segment of segments) {
    if (current === undefined) return; // the rest of the path is created (or, for $unset/$pull, absent)
    const viable = isPlainObject(current) || (Array.isArray(current) && isIndex(segment));
    if (!viable) {
      if (CHANGES_EXISTING.has(operator)) return;
      throw new TypeError(`Cannot create field ${JSON.stringify(segment)} along ${JSON.stringify(path)}`);
    }
    current = Object.hasOwn(current as object, segment) ? (current as JsonObject)[segment] : undefined;
  }
  if (current === undefined) return;
  if (operator === '$inc' && typeof current !== 'number') {
    throw new TypeError(`Cannot apply $inc to the non-numeric field ${path}`);
  }
  if ((operator === '$push' || operator === '$pull') && !Array.isArray(current)) {
    throw new TypeError(`Cannot apply ${operator} to the non-array field ${path}`);
  }
}
