/**
 * Plain-JSON value helpers shared by the filter matcher, the update applier and the sort (pure functions).
 * Stored documents are JSON: strings, finite numbers, booleans, null, arrays and plain objects.
 */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep copy of a JSON value that also validates it: anything that would not survive a JSON round trip the
 * same way on both adapters (Date, NaN, Infinity, bigint, functions, class instances, `undefined` inside arrays,
 * keys with `.` or a leading `$`, `__proto__`) is a TypeError. Properties whose value is `undefined` are dropped
 * (like `JSON.stringify`, and like the MongoDB adapter, which sets `ignoreUndefined`).
 */
export function cloneJson<T>(value: T, path = 'value'): T {
  return copyValue(value, path) as T;
}

function copyValue(value: unknown, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path} must be a finite number`);
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      if (item === undefined) throw new TypeError(`${path}.${index} is undefined (not JSON)`);
      return copyValue(item, `${path}.${index}`);
    });
  }
  if (isPlainObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      assertFieldName(key, path);
      copy[key] = copyValue(item, `${path}.${key}`);
    }
    return copy;
  }
  throw new TypeError(`${path} is not plain JSON (${describeType(value)})`);
}

/** A field name that is safe in MongoDB and in a JS object: not empty, no `.`, no leading `$`, not `__proto__`. */
function assertFieldName(key: string, where = 'document'): void {
  if (key === '' || key.includes('.') || key.startsWith('$') || key === '__proto__') {
    throw new TypeError(`Invalid field name ${JSON.stringify(key)} in ${where}`);
  }
}

function describeType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'object';
}

/** Deep copy without validation, for values already known to be JSON (stored state). */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => copyJson(item)) as T;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value as JsonObject)) copy[key] = copyJson(item);
  return copy as T;
}

/** MongoDB equality: same type and value; objects compare field by field in order (as BSON does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key, index) => key === bKeys[index] && jsonEqual((a as JsonObject)[key], (b as JsonObject)[key]),
  );
}

/** BSON comparison order of the JSON types: null < numbers < strings < objects < arrays < booleans. */
function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  if (typeof value === 'boolean') return 8;
  return 100;
}

/** Strings in code point order (= UTF-8 byte order, MongoDB's simple collation), not UTF-16 unit order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000; // surrogates encode code points above U+FFFF
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Total order over JSON values in BSON order (used by the sort). */
export function compareJson(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return Math.sign(rank);
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return Math.sign(compareStrings(a, b));
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) return compareSequences(a, b);
  if (isPlainObject(a) && isPlainObject(b)) {
    const aEntries = Object.entries(a);
    const bEntries = Object.entries(b);
    const length = Math.min(aEntries.length, bEntries.length);
    for (let i = 0; i < length; i++) {
      const [aKey, aValue] = aEntries[i]!;
      const [bKey, bValue] = bEntries[i]!;
      const byValueType = typeRank(aValue) - typeRank(bValue);
      if (byValueType !== 0) return Math.sign(byValueType);
      const byKey = compareStrings(aKey, bKey);
      if (byKey !== 0) return Math.sign(byKey);
      const byValue = compareJson(aValue, bValue);
      if (byValue !== 0) return byValue;
    }
    return Math.sign(aEntries.length - bEntries.length);
  }
  return 0;
}

function compareSequences(a: readonly unknown[], b: readonly unknown[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const byItem = compareJson(a[i], b[i]);
    if (byItem !== 0) return byItem;
  }
  return Math.sign(a.length - b.length);
}
