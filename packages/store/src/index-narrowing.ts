import { isOperatorObject } from './filter-validation.js';
import { isPlainObject, type JsonObject } from './json-values.js';
import type { Filter, IndexSpec } from './types.js';

/**
 * Which records a find may skip (pure functions). The embedded adapter keeps, for each non-unique index, a
 * posting per value of the index's first field (an array field: one per scalar element); a filter whose top
 * level constrains that field to some values or to a range reads only those postings, plus the records whose
 * value it could not post (arrays for a range, objects and arrays of non-scalars always). The result is a
 * superset of the matches: the filter itself still decides. Null, missing and anything unusual read everything.
 */

type Scalar = string | number | boolean;

/** What to read: the postings of some values, or of a range of one type, of index `index`'s first field. */
export type Narrowing =
  | { index: string; values: Scalar[] }
  | { index: string; range: { from: string; to: string } | { from: number; to: number } };

/** What a record's value of an indexed field posts (null and missing: nothing, never narrowed to). */
export interface Postings {
  scalars: Scalar[];
  /** An array (a range may match it through two different elements: always read for a range). */
  array: boolean;
  /** An object, a long string, or an array holding one: always read. */
  unusual: boolean;
}

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean';

/** A string longer than this is not posted (an LMDB key holds at most 1,978 bytes): it counts as unusual. */
const MAX_POSTED_BYTES = 512;
const isPostable = (value: unknown): value is Scalar =>
  isScalar(value) && (typeof value !== 'string' || Buffer.byteLength(value) <= MAX_POSTED_BYTES);

/** ASCII strings order the same in JavaScript and in LMDB's byte order; others may not. */
const isAscii = (value: string) => /^[\x00-\x7f]*$/.test(value);

/** The postings of a field's value (top-level field only). */
export function postingsOf(value: unknown): Postings {
  if (Array.isArray(value)) {
    return {
      scalars: [...new Set(value.filter(isPostable))],
      array: true,
      unusual: value.some((element) => !isPostable(element) && element !== null),
    };
  }
  if (isPostable(value)) return { scalars: [value], array: false, unusual: false };
  return { scalars: [], array: false, unusual: isPlainObject(value) || isScalar(value) };
}

/** The first field of an index, when it is a top-level field (a dotted path is not narrowed). */
export function leadingField(spec: IndexSpec): string | null {
  const [first] = Object.keys(spec.fields);
  return first !== undefined && !first.includes('.') ? first : null;
}

/** The narrowing a filter allows with one of `indexes` (non-unique, postings complete), or null. */
export function narrowing(filter: Filter, indexes: readonly IndexSpec[]): Narrowing | null {
  let range: Narrowing | null = null;
  for (const spec of indexes) {
    const field = leadingField(spec);
    if (field === null || !(field in filter)) continue;
    const condition = filter[field];
    const values = equalValues(condition);
    if (values) return { index: spec.name, values };
    const bounds = rangeOf(condition);
    if (bounds && !range) range = { index: spec.name, range: bounds };
  }
  return range;
}

/** `v`, `{ $eq: v }` or `{ $in: [v…] }` with scalar v (alongside other operators): the values; else null. */
function equalValues(condition: unknown): Scalar[] | null {
  if (isPostable(condition)) return [condition];
  if (!isOperatorObject(condition)) return null;
  if (isPostable(condition.$eq)) return [condition.$eq];
  const listed = condition.$in;
  if (Array.isArray(listed) && listed.length > 0 && listed.every(isPostable)) return [...new Set(listed)];
  return null;
}

/** A lower and an upper bound of one type (numbers, or ASCII strings); else null. */
function rangeOf(condition: unknown): { from: string; to: string } | { from: number; to: number } | null {
  if (!isOperatorObject(condition)) return null;
  const ops = condition as JsonObject;
  const from = ops.$gte ?? ops.$gt;
  const to = ops.$lte ?? ops.$lt;
  if (typeof from === 'number' && typeof to === 'number' && Number.isFinite(from) && Number.isFinite(to)) {
    return { from, to };
  }
  const postableAscii = (bound: unknown): bound is string =>
    typeof bound === 'string' && isPostable(bound) && isAscii(bound);
  if (postableAscii(from) && postableAscii(to)) return { from, to };
  return null;
}
