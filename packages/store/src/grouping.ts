import type { Document } from 'mongodb';
import { isReservedField } from './stored-document.js';
import type { Group, GroupSpec } from './types.js';

/**
 * `TenantCollection.group` on both adapters (pure functions): the embedded store groups the records it read, MongoDB
 * runs `$group` and its answer is brought to the same shape. A missing `by` field and null are one group on both
 * (MongoDB would leave the missing field out of `_id`, a group apart); a sum adds numbers only, as `$sum` does.
 */

const FIELD_NAME = /^[^$.][^.]*$/;

/** Refuses fields that are not top-level caller fields, and an empty `by` (TypeError). */
export function validateGroupSpec(spec: GroupSpec): void {
  if (!spec || !Array.isArray(spec.by) || !Array.isArray(spec.sum)) {
    throw new TypeError('group needs by and sum arrays');
  }
  if (spec.by.length === 0) throw new TypeError('group needs at least one by field');
  for (const field of [...spec.by, ...spec.sum]) {
    if (typeof field !== 'string' || !FIELD_NAME.test(field) || isReservedField(field)) {
      throw new TypeError(`group may not use the field ${String(field)}`);
    }
  }
}

/** Groups documents (the embedded store's matches, read in place). */
export function groupDocuments(docs: Iterable<Record<string, unknown>>, spec: GroupSpec): Group[] {
  const groups = new Map<string, Group>();
  for (const doc of docs) {
    const values = spec.by.map((field) => doc[field] ?? null);
    add(groups, values, spec, 1, (field) => (typeof doc[field] === 'number' ? (doc[field] as number) : 0));
  }
  return [...groups.values()];
}

/** The `$group` stage of `spec` (positional `_id` keys and sum names: any caller field name fits). */
export function mongoGroupStage(spec: GroupSpec): Document {
  const stage: Document = {
    _id: Object.fromEntries(spec.by.map((field, i) => [`k${i}`, `$${field}`])),
    count: { $sum: 1 },
  };
  for (const [i, field] of spec.sum.entries()) stage[`s${i}`] = { $sum: `$${field}` };
  return { $group: stage };
}

/** MongoDB's groups in `group`'s shape, a missing key and null merged. */
export function fromMongoGroups(rows: readonly Document[], spec: GroupSpec): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const id = (row._id ?? {}) as Document;
    const values = spec.by.map((_, i) => (id[`k${i}`] ?? null) as unknown);
    add(groups, values, spec, row.count as number, (_, i) => Number(row[`s${i}`] ?? 0));
  }
  return [...groups.values()];
}

function add(
  groups: Map<string, Group>,
  values: unknown[],
  spec: GroupSpec,
  count: number,
  sumOf: (field: string, index: number) => number,
): void {
  const id = JSON.stringify(values);
  let group = groups.get(id);
  if (!group) {
    group = {
      key: Object.fromEntries(spec.by.map((field, i) => [field, values[i]])),
      count: 0,
      sums: Object.fromEntries(spec.sum.map((field) => [field, 0])),
    };
    groups.set(id, group);
  }
  group.count += count;
  for (const [i, field] of spec.sum.entries()) group.sums[field]! += sumOf(field, i);
}
