import { MISSING, resolvePath, splitPath, type Candidate } from './field-paths.js';
import { compareStrings, isPlainObject, jsonEqual, type JsonObject } from './json-values.js';
import type { Filter } from './types.js';

/**
 * The Filter subset of types.ts with MongoDB semantics, as pure functions: the embedded adapter matches with
 * them, and both adapters validate with `validateFilter` so that a filter outside the subset fails the same
 * way everywhere (TypeError) instead of working on one adapter only.
 */

const FIELD_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$exists',
  '$elemMatch',
  '$size',
  '$not',
]);
const LOGICAL_OPERATORS = new Set(['$and', '$or']);

/** `{ $gt: 1, $lt: 5 }`: an object whose keys are all operators (a literal object has none). */
export function isOperatorObject(value: unknown): value is JsonObject {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** Throws a TypeError when the filter uses anything outside the documented subset. */
export function validateFilter(filter: unknown, where = 'filter'): void {
  if (!isPlainObject(filter)) throw new TypeError(`${where} must be an object`);
  for (const [key, condition] of Object.entries(filter)) {
    if (LOGICAL_OPERATORS.has(key)) {
      if (!Array.isArray(condition) || condition.length === 0) {
        throw new TypeError(`${where}.${key} must be a non-empty array of filters`);
      }
      condition.forEach((clause, index) => validateFilter(clause, `${where}.${key}.${index}`));
    } else if (key.startsWith('$')) {
      throw new TypeError(`Unsupported operator ${key} in ${where}`);
    } else {
      splitPath(key);
      validateCondition(condition, `${where}.${key}`);
    }
  }
}

function validateCondition(condition: unknown, where: string): void {
  if (condition === undefined) throw new TypeError(`${where} is undefined`);
  if (!isPlainObject(condition)) return;
  const keys = Object.keys(condition);
  const operators = keys.filter((key) => key.startsWith('$'));
  if (operators.length === 0) return;
  if (operators.length !== keys.length) throw new TypeError(`${where} mixes operators and fields`);
  for (const [operator, operand] of Object.entries(condition)) validateOperator(operator, operand, where);
}

function validateOperator(operator: string, operand: unknown, where: string): void {
  const at = `${where}.${operator}`;
  switch (operator) {
    case '$eq':
    case '$ne':
      if (operand === undefined) throw new TypeError(`${at} is undefined`);
      return;
    case '$in':
    case '$nin':
      if (!Array.isArray(operand)) throw new TypeError(`${at} must be an array`);
      return;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      if (!['number', 'string', 'boolean'].includes(typeof operand)) {
        throw new TypeError(`${at} must be a number, a string or a boolean`);
      }
      return;
    case '$exists':
      if (typeof operand !== 'boolean') throw new TypeError(`${at} must be a boolean`);
      return;
    case '$size':
      if (!Number.isInteger(operand) || (operand as number) < 0) {
        throw new TypeError(`${at} must be a non-negative integer`);
      }
      return;
    case '$elemMatch':
      if (!isPlainObject(operand)) throw new TypeError(`${at} must be an object`);
      if (isValueCondition(operand)) validateCondition(operand, at);
      else validateFilter(operand, at);
      return;
    case '$not':
      if (!isOperatorObject(operand)) throw new TypeError(`${at} must be an object of operators`);
      validateCondition(operand, at);
      return;
    default:
      if (!FIELD_OPERATORS.has(operator)) throw new TypeError(`Unsupported operator ${operator} in ${where}`);
  }
}

/** `$elemMatch: { $gte: 1 }` applies operators to each element; `$elemMatch: { a: 1 }` is a filter on objects. */
function isValueCondition(condition: JsonObject): boolean {
  return isOperatorObject(condition) && !Object.keys(condition).some((key) => LOGICAL_OPERATORS.has(key));
}

/** True when the document matches the filter (assumed valid: see `validateFilter`). */
export function matchesFilter(doc: unknown, filter: Filter): boolean {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and') {
      if (!(condition as Filter[]).every((clause) => matchesFilter(doc, clause))) return false;
    } else if (key === '$or') {
      if (!(condition as Filter[]).some((clause) => matchesFilter(doc, clause))) return false;
    } else if (!matchesCondition(resolvePath(doc, key), condition)) {
      return false;
    }
  }
  return true;
}

function matchesCondition(candidates: readonly Candidate[], condition: unknown): boolean {
  if (!isOperatorObject(condition)) return equalsAny(candidates, condition);
  return Object.entries(condition).every(([operator, operand]) =>
    matchesOperator(candidates, operator, operand),
  );
}

function matchesOperator(candidates: readonly Candidate[], operator: string, operand: unknown): boolean {
  switch (operator) {
    case '$eq':
      return equalsAny(candidates, operand);
    case '$ne':
      return !equalsAny(candidates, operand);
    case '$in':
      return (operand as unknown[]).some((value) => equalsAny(candidates, value));
    case '$nin':
      return !(operand as unknown[]).some((value) => equalsAny(candidates, value));
    case '$gt':
      return someScalar(candidates, (value) => compareSameType(value, operand, (order) => order > 0));
    case '$gte':
      return someScalar(candidates, (value) => compareSameType(value, operand, (order) => order >= 0));
    case '$lt':
      return someScalar(candidates, (value) => compareSameType(value, operand, (order) => order < 0));
    case '$lte':
      return someScalar(candidates, (value) => compareSameType(value, operand, (order) => order <= 0));
    case '$exists':
      return candidates.some((value) => value !== MISSING) === operand;
    case '$size':
      return candidates.some((value) => Array.isArray(value) && value.length === operand);
    case '$elemMatch':
      return candidates.some(
        (value) => Array.isArray(value) && value.some((item) => elementMatches(item, operand)),
      );
    case '$not':
      return !matchesCondition(candidates, operand);
    default:
      throw new TypeError(`Unsupported operator ${operator}`);
  }
}

function elementMatches(item: unknown, condition: unknown): boolean {
  const asObject = condition as JsonObject;
  if (isValueCondition(asObject)) return matchesCondition([item], asObject);
  return isPlainObject(item) && matchesFilter(item, asObject);
}

/** Equality as MongoDB does it: a value, or any element of an array value; null also matches a missing field. */
function equalsAny(candidates: readonly Candidate[], expected: unknown): boolean {
  return candidates.some((value) => {
    if (value === MISSING) return expected === null;
    if (jsonEqual(value, expected)) return true;
    return Array.isArray(value) && value.some((item) => jsonEqual(item, expected));
  });
}

/** A comparison is tried on the value and, for an array, on each element. */
function someScalar(candidates: readonly Candidate[], test: (value: unknown) => boolean): boolean {
  return candidates.some((value) => {
    if (value === MISSING) return false;
    if (Array.isArray(value)) return value.some(test);
    return test(value);
  });
}

/** Numbers with numbers, strings with strings, booleans with booleans; anything across types never matches. */
function compareSameType(value: unknown, operand: unknown, accept: (order: number) => boolean): boolean {
  if (typeof value === 'number' && typeof operand === 'number') return accept(value - operand);
  if (typeof value === 'string' && typeof operand === 'string') return accept(compareStrings(value, operand));
  if (typeof value === 'boolean' && typeof operand === 'boolean')
    return accept(Number(value) - Number(operand));
  return false;
}
