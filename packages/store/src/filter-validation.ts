import { splitPath } from './field-paths.js';
import { isPlainObject, type JsonObject } from './json-values.js';

/**
 * The store's whitelist of the Filter subset of types.ts (pure functions): both adapters validate with
 * `validateFilter`, so that a filter outside the subset fails the same way everywhere (TypeError) instead of
 * working on one adapter only. The embedded adapter then matches with mingo (embedded-filter.ts).
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
