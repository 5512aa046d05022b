import { Context } from 'mingo/core';
import { $and, $elemMatch, $exists, $gt, $gte, $lt, $lte, $not, $or, $size } from 'mingo/operators/query';
import type { QueryOperator } from 'mingo/types';
import { MISSING, resolvePath, type Candidate } from './field-paths.js';
import { jsonEqual } from './json-values.js';

/**
 * The operators the embedded adapter's mingo queries may use: exactly the store's Filter subset (see
 * filter-validation.ts), so a filter that slipped past validation still cannot reach any other mingo operator
 * (`$where`, `$expr`, `$regex`…: "unknown query operator").
 *
 * mingo's own operators serve everything but equality. `$eq $ne $in $nin` are the store's, because mingo's
 * differ from MongoDB's where the contract suite pins MongoDB's behaviour: mingo's object equality ignores key
 * order (MongoDB compares BSON documents field by field, in order), and mingo's path resolution drops the
 * elements of an array that lack the field, so `{ 'lines.qty': null }` would not match a line without `qty`
 * (MongoDB: it does).
 */
export const FILTER_CONTEXT = Context.init({
  query: {
    $and,
    $or,
    $not,
    $gt,
    $gte,
    $lt,
    $lte,
    $exists,
    $size,
    $elemMatch,
    $eq: equalityOperator((candidates, operand) => equalsAny(candidates, operand)),
    $ne: equalityOperator((candidates, operand) => !equalsAny(candidates, operand)),
    $in: equalityOperator((candidates, operand) =>
      (operand as unknown[]).some((value) => equalsAny(candidates, value)),
    ),
    $nin: equalityOperator(
      (candidates, operand) => !(operand as unknown[]).some((value) => equalsAny(candidates, value)),
    ),
  },
});

/** A mingo query operator testing the values a dotted path reaches (MongoDB's implicit array traversal). */
function equalityOperator(test: (candidates: Candidate[], operand: unknown) => boolean): QueryOperator {
  return ((selector: string, operand: unknown) => (doc: unknown) =>
    test(resolvePath(doc, selector), operand)) as unknown as QueryOperator;
}

/** Equality as MongoDB does it: a value, or any element of an array value; null also matches a missing field. */
function equalsAny(candidates: readonly Candidate[], expected: unknown): boolean {
  return candidates.some((value) => {
    if (value === MISSING) return expected === null;
    if (jsonEqual(value, expected)) return true;
    return Array.isArray(value) && value.some((item) => jsonEqual(item, expected));
  });
}
