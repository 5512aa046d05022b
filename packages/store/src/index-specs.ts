import { splitPath } from './field-paths.js';
import { isPlainObject } from './json-values.js';
import type { IndexSpec } from './types.js';

/**
 * Validates index specs (both adapters): a name other than MongoDB's `_id_`, at least one field, directions
 * 1 or -1, no `tenantId` (the store puts it first itself), names unique within the list.
 */
export function validateIndexSpecs(indexes: readonly IndexSpec[]): void {
  if (!Array.isArray(indexes)) throw new TypeError('indexes must be an array');
  const names = new Set<string>();
  for (const spec of indexes) {
    if (!isPlainObject(spec)) throw new TypeError('an index spec must be an object');
    if (typeof spec.name !== 'string' || spec.name === '' || spec.name === '_id_' || spec.name === 'id') {
      throw new TypeError(`Invalid index name ${JSON.stringify(spec.name)}`);
    }
    if (names.has(spec.name)) throw new TypeError(`Index ${spec.name} is listed twice`);
    names.add(spec.name);
    if (!isPlainObject(spec.fields) || Object.keys(spec.fields).length === 0) {
      throw new TypeError(`Index ${spec.name} needs at least one field`);
    }
    for (const [path, direction] of Object.entries(spec.fields)) {
      splitPath(path);
      if (path === 'tenantId') throw new TypeError(`Index ${spec.name}: tenantId is added by the store`);
      if (direction !== 1 && direction !== -1)
        throw new TypeError(`Index ${spec.name}: ${path} must be 1 or -1`);
    }
    if (spec.unique !== undefined && typeof spec.unique !== 'boolean') {
      throw new TypeError(`Index ${spec.name}: unique must be a boolean`);
    }
  }
}

/** The MongoDB key of an index: `tenantId` first, then the spec's fields in order. */
export function tenantIndexKey(spec: IndexSpec): Record<string, 1 | -1> {
  return { tenantId: 1, ...spec.fields };
}
