import {
  parentForRead,
  parentForWrite,
  pathsConflict,
  readChild,
  splitPath,
  writeChild,
} from './field-paths.js';
import { isOperatorObject, matchesFilter, validateFilter } from './filter-matcher.js';
import { cloneJson, copyJson, isPlainObject, jsonEqual, type JsonObject } from './json-values.js';
import type { Filter, Update } from './types.js';

/**
 * The Update subset of types.ts with MongoDB semantics, as pure functions: the embedded adapter applies
 * updates with them; both adapters validate with `validateUpdate` (TypeError outside the subset) and derive an
 * upsert's seed and id with `upsertSeed` / `upsertId`.
 */

const UPDATE_OPERATORS = ['$set', '$unset', '$inc', '$push', '$pull', '$setOnInsert'] as const;
type UpdateOperator = (typeof UPDATE_OPERATORS)[number];

/**
 * Throws a TypeError for an update outside the subset, with a conflicting path (`a` and `a.b`), or touching a
 * protected root field (`protectedFields`; `$setOnInsert` may set those listed in `insertOnly`).
 */
export function validateUpdate(
  update: unknown,
  protectedFields: readonly string[] = [],
  insertOnly: readonly string[] = [],
): asserts update is Update {
  if (!isPlainObject(update)) throw new TypeError('update must be an object');
  const seen: string[] = [];
  for (const [operator, fields] of Object.entries(update)) {
    if (!(UPDATE_OPERATORS as readonly string[]).includes(operator)) {
      throw new TypeError(`Unsupported update operator ${operator}`);
    }
    if (!isPlainObject(fields)) throw new TypeError(`update.${operator} must be an object`);
    for (const [path, operand] of Object.entries(fields)) {
      const root = splitPath(path)[0]!;
      if (protectedFields.includes(root) && !(operator === '$setOnInsert' && insertOnly.includes(root))) {
        throw new TypeError(`update.${operator} may not change the reserved field ${root}`);
      }
      validateOperand(operator as UpdateOperator, path, operand);
      const clash = seen.find((other) => pathsConflict(other, path));
      if (clash !== undefined) throw new TypeError(`Updating ${path} conflicts with ${clash}`);
      seen.push(path);
    }
  }
}

function validateOperand(operator: UpdateOperator, path: string, operand: unknown): void {
  const at = `update.${operator}.${path}`;
  if (operand === undefined) throw new TypeError(`${at} is undefined`);
  if (operator === '$inc' && (typeof operand !== 'number' || !Number.isFinite(operand))) {
    throw new TypeError(`${at} must be a finite number`);
  }
  if (operator === '$push' && isPlainObject(operand) && Object.hasOwn(operand, '$each')) {
    if (Object.keys(operand).length !== 1 || !Array.isArray(operand.$each)) {
      throw new TypeError(`${at} supports only { $each: [...] }`);
    }
  }
  if (operator === '$pull' && isPlainObject(operand)) {
    if (isOperatorObject(operand)) validateFilter({ value: operand }, at);
    else validateFilter(operand, at);
  }
  if (operator === '$push') cloneJson(pushedItems(operand), at);
  else if (operator !== '$unset' && operator !== '$pull') cloneJson(operand, at);
}

/**
 * Applies a (valid) update to a copy of `doc` and returns the copy. `$setOnInsert` applies only when
 * `inserting`. Throws a TypeError where MongoDB would refuse the write (e.g. `$inc` on a string, `$push` on a
 * non-array, a path through a scalar).
 */
export function applyUpdate(
  doc: JsonObject,
  update: Update,
  options: { inserting?: boolean } = {},
): JsonObject {
  const result = copyJson(doc);
  for (const [operator, fields] of Object.entries(update) as Array<[UpdateOperator, JsonObject]>) {
    if (operator === '$setOnInsert' && !options.inserting) continue;
    for (const [path, operand] of Object.entries(fields)) applyOperator(result, operator, path, operand);
  }
  return result;
}

function applyOperator(doc: JsonObject, operator: UpdateOperator, path: string, operand: unknown): void {
  switch (operator) {
    case '$set':
    case '$setOnInsert': {
      const { parent, key } = parentForWrite(doc, path);
      writeChild(parent, key, cloneJson(operand), path);
      return;
    }
    case '$unset': {
      const target = parentForRead(doc, path);
      if (!target) return;
      if (Array.isArray(target.parent)) {
        if (readChild(target.parent, target.key, path) !== undefined)
          writeChild(target.parent, target.key, null, path);
      } else {
        delete target.parent[target.key];
      }
      return;
    }
    case '$inc': {
      const { parent, key } = parentForWrite(doc, path);
      const current = readChild(parent, key, path);
      if (current === undefined) writeChild(parent, key, operand, path);
      else if (typeof current === 'number') writeChild(parent, key, current + (operand as number), path);
      else throw new TypeError(`Cannot apply $inc to the non-numeric field ${path}`);
      return;
    }
    case '$push': {
      const { parent, key } = parentForWrite(doc, path);
      const current = readChild(parent, key, path);
      const items = pushedItems(operand);
      if (current === undefined) writeChild(parent, key, cloneJson(items), path);
      else if (Array.isArray(current)) current.push(...cloneJson(items));
      else throw new TypeError(`Cannot apply $push to the non-array field ${path}`);
      return;
    }
    case '$pull': {
      const target = parentForRead(doc, path);
      if (!target) return;
      const current = readChild(target.parent, target.key, path);
      if (current === undefined) return;
      if (!Array.isArray(current)) throw new TypeError(`Cannot apply $pull to the non-array field ${path}`);
      writeChild(
        target.parent,
        target.key,
        current.filter((item) => !pullMatches(item, operand)),
        path,
      );
      return;
    }
  }
}

/** `$pull: value` removes equal elements; `$pull: { $gte: 5 }` tests each element; `$pull: { a: 1 }` is a filter. */
function pullMatches(item: unknown, condition: unknown): boolean {
  if (isOperatorObject(condition)) return matchesFilter({ value: item }, { value: condition });
  if (isPlainObject(condition)) return isPlainObject(item) && matchesFilter(item, condition);
  return jsonEqual(item, condition);
}

/**
 * The document an upsert starts from: the filter's plain equality fields (`{ a: 1 }`, `{ a: { $eq: 1 } }`, also
 * inside `$and`), dotted paths expanded. Operators other than `$eq` and `$or` branches seed nothing.
 */
export function upsertSeed(filter: Filter): JsonObject {
  const seed: JsonObject = {};
  collectEqualities(filter, seed);
  return seed;
}

function collectEqualities(filter: Filter, seed: JsonObject): void {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and') {
      for (const clause of condition as Filter[]) collectEqualities(clause, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    let value: unknown;
    if (!isOperatorObject(condition)) value = condition;
    else if (Object.keys(condition).length === 1 && Object.hasOwn(condition, '$eq')) value = condition.$eq;
    else continue;
    const { parent, key: last } = parentForWrite(seed, key);
    writeChild(parent, last, cloneJson(value), key);
  }
}

/**
 * The id of the record an upsert would create: the filter's `id` equality, else `$setOnInsert.id`, else
 * undefined (the adapter generates one). A non-string id, or two different ids, is a TypeError.
 */
export function upsertId(filter: Filter, update: Update): string | undefined {
  const fromFilter = upsertSeed(filter).id;
  const fromUpdate = update.$setOnInsert?.id;
  for (const candidate of [fromFilter, fromUpdate]) {
    if (candidate !== undefined && (typeof candidate !== 'string' || candidate === '')) {
      throw new TypeError('An upserted id must be a non-empty string');
    }
  }
  if (fromFilter !== undefined && fromUpdate !== undefined && fromFilter !== fromUpdate) {
    throw new TypeError('The filter and $setOnInsert name different ids');
  }
  return (fromFilter ?? fromUpdate) as string | undefined;
}

/** `$push: value` pushes one item, `$push: { $each: [...] }` several. */
function pushedItems(operand: unknown): unknown[] {
  return isPlainObject(operand) && Object.hasOwn(operand, '$each')
    ? [...(operand.$each as unknown[])]
    : [operand];
}
