import { isPlainObject } from './json-values.js';

/** Marks a path that reaches no value (MongoDB "missing"), distinct from a stored `null`. */
export const MISSING: unique symbol = Symbol('missing');
export type Candidate = unknown | typeof MISSING;

/** Splits a dotted path (`a.b.0.c`) into segments; empty segments and `__proto__` are refused. */
export function splitPath(path: string): string[] {
  const segments = path.split('.');
  for (const segment of segments) {
    if (segment === '' || segment === '__proto__' || segment.startsWith('$')) {
      throw new TypeError(`Invalid field path ${JSON.stringify(path)}`);
    }
  }
  return segments;
}

export function isIndex(segment: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(segment);
}

/**
 * Every value a dotted path reaches, with MongoDB's implicit array traversal: on an array, a numeric segment
 * selects an element and every object element is also searched for the segment. Returns `[MISSING]` when the
 * path reaches nothing.
 */
export function resolvePath(doc: unknown, path: string): Candidate[] {
  const out: Candidate[] = [];
  collect(doc, splitPath(path), 0, out);
  return out.length === 0 ? [MISSING] : out;
}

function collect(value: unknown, segments: readonly string[], depth: number, out: Candidate[]): void {
  if (depth === segments.length) {
    out.push(value);
    return;
  }
  const segment = segments[depth]!;
  if (Array.isArray(value)) {
    if (isIndex(segment)) {
      const index = Number(segment);
      if (index < value.length) collect(value[index], segments, depth + 1, out);
    }
    for (const item of value) {
      if (isPlainObject(item)) collect(item, segments, depth, out);
    }
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, segment)) {
    collect(value[segment], segments, depth + 1, out);
    return;
  }
  out.push(MISSING);
}

/** The value at a path without array traversal (numeric segments index arrays), or undefined. */
export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const segment of splitPath(path)) {
    if (Array.isArray(current) && isIndex(segment)) current = current[Number(segment)];
    else if (isPlainObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** True when one path equals the other or is a prefix of it (`a` and `a.b`): MongoDB's update conflict. */
export function pathsConflict(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}
