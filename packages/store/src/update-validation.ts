import { pathsConflict, splitPath } from './field-paths.js';
import { isOperatorObject, validateFilter } from './filter-validation.js';
import { cloneJson, isPlainObject, type JsonObject } from './json-values.js';
import type { Filter, Update } from './types.js';

/**
 * The store's whitelist of the Update subset of types.ts (pure functions): both adapters validate with
 * `validateUpdate` (TypeError outside the subset) and derive an upsert's seed and id with `upsertSeed` /
 * `upsertId`. The embedded adapter then applies updates with mingo (embedded-update.ts).
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
    setSeedPath(seed, key, value);
  }
}

/** Writes a dotted path into the seed, creating objects; a path through a value already seeded is a TypeError. */
function setSeedPath(seed: JsonObject, path: string, value: unknown): void {
  const segments = splitPath(path);
  let current = seed;
  for (const segment of segments.slice(0, -1)) {
    if (!Object.hasOwn(current, segment)) current[segment] = {};
    const next = current[segment];
    if (!isPlainObject(next)) throw new TypeError(`The filter's equalities on ${path} conflict`);
    current = next;
  }
  current[segments.at(-1)!] = cloneJson(value);
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
