import fc from 'fast-check';

/** Strings that have broken parsers, stores and caches before: the fuzzer mixes them with random ones. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'a'.repeat(1100),
  'é'.repeat(3000),
  '\uD800',
  '\uDFFFx\uD800',
  '\u202Eabc\u202C',
  'שלום',
  'a\u0000b',
  '\u0000',
  '\uFEFF',
  '😀'.repeat(50),
  '$gt',
  '$where',
  '$ne',
  'a.b',
  '__proto__',
  'constructor',
  'prototype',
  '{"$gt":""}',
  '../../etc/passwd',
  '%',
  '%00',
  '%zz',
  '%2F',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '9'.repeat(400),
  '0x10',
  '1.5',
  '-1',
  'null',
  'undefined',
  'true',
  '2026-02-30',
  '2026-13-45T25:61:00Z',
  '2026-11-23T19:30:00.000Z',
  '2026-11-23',
  '19:30',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '\\',
  '"',
];

export const HOSTILE_KEYS: readonly string[] = [
  '$gt',
  '$where',
  '$set',
  'a.b',
  '__proto__',
  'constructor',
  'prototype',
  'tenantId',
  '',
  '\u0000',
  '\uD800',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1025, maxLength: 3000 }) },
);

/** A JSON number as raw text, including ones JavaScript cannot hold (`1e999`, 30 digits). */
export const hostileNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '0.0000000000001', '1E2'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom('2147483648', '-2147483649', '9007199254740993'),
);

/**
 * A JSON value as raw text (so keys such as `__proto__` and duplicate keys survive, and numbers can be
 * out of range), at most `depth` levels of objects and arrays. Deep nesting has its own arbitrary.
 */
export function jsonText(depth: number): fc.Arbitrary<string> {
  const leaf: fc.Arbitrary<string> = fc.oneof(
    hostileString.map((s) => JSON.stringify(s)),
    hostileNumberText,
    fc.constantFrom('true', 'false', 'null', '{}', '[]'),
  );
  if (depth <= 0) return leaf;
  const inner = jsonText(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
    { weight: 1, arbitrary: objectText(inner) },
  );
}

export function objectText(value: fc.Arbitrary<string>, keys: readonly string[] = []): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(...HOSTILE_KEYS, ...keys),
    fc.string({ maxLength: 12 }),
    ...(keys.length > 0 ? [fc.constantFrom(...keys), fc.constantFrom(...keys)] : []),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 6 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
}

/** JSON nested `levels` deep (arrays or objects), with any value at the bottom. */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean(), fc.constantFrom('1', '"x"', '{}', 'null'))
  .map(([levels, arrays, bottom]) =>
    arrays
      ? `${'['.repeat(levels)}${bottom}${']'.repeat(levels)}`
      : `${'{"a":'.repeat(levels)}${bottom}${'}'.repeat(levels)}`,
  );
