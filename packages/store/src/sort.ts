import { MISSING, resolvePath, splitPath } from './field-paths.js';
import { compareJson, compareStrings, isPlainObject } from './json-values.js';
import type { FindOptions, Sort } from './types.js';

/**
 * Sorting and paging with MongoDB semantics (pure functions): values in BSON type order, a missing field sorts
 * as null, an array sorts by its smallest element ascending and its largest descending. Ties are broken by `id`
 * (both adapters do this, so pages never overlap or skip a record).
 */

/** Throws a TypeError unless every direction is 1 or -1 and every key a valid path. */
export function validateSort(sort: unknown): asserts sort is Sort {
  if (!isPlainObject(sort)) throw new TypeError('sort must be an object');
  for (const [path, direction] of Object.entries(sort)) {
    splitPath(path);
    if (direction !== 1 && direction !== -1) throw new TypeError(`sort.${path} must be 1 or -1`);
  }
}

/** Throws a TypeError unless skip and limit are non-negative integers (limit 0 means no limit). */
export function validatePaging(options: FindOptions): void {
  for (const name of ['skip', 'limit'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new TypeError(`${name} must be a non-negative integer`);
    }
  }
}

/** The value a document sorts by for one field and direction. */
export function sortKey(doc: unknown, path: string, direction: 1 | -1): unknown {
  let best: unknown = undefined;
  let found = false;
  for (const candidate of resolvePath(doc, path)) {
    const values = Array.isArray(candidate) ? candidate : [candidate === MISSING ? null : candidate];
    for (const value of values) {
      if (!found || compareJson(value, best) * direction < 0) {
        best = value;
        found = true;
      }
    }
  }
  return found ? best : null;
}

/** Sorted copy of `docs` (each with a string `id`), ties broken by id. */
export function sortDocuments<T extends { id: string }>(docs: readonly T[], sort: Sort): T[] {
  const fields = Object.entries(sort);
  const keyed = docs.map((doc) => ({
    doc,
    keys: fields.map(([path, direction]) => sortKey(doc, path, direction)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareJson(a.keys[i], b.keys[i]) * fields[i]![1];
      if (order !== 0) return order;
    }
    return compareStrings(a.doc.id, b.doc.id);
  });
  return keyed.map((entry) => entry.doc);
}

/** The page `skip`/`limit` select (limit 0 or absent: everything after skip). */
export function page<T>(docs: readonly T[], options: Pick<FindOptions, 'skip' | 'limit'>): T[] {
  const start = options.skip ?? 0;
  const end = options.limit ? start + options.limit : undefined;
  return docs.slice(start, end);
}
