import { z } from 'zod';
import type { Field, Presence, PresenceOptions } from './field.js';
import { makeField, quote } from './field.js';

/** Options of `str`. */
export interface StrOptions extends PresenceOptions<string> {
  /** Minimum length in characters (e.g. 32 for a signing secret). */
  minLength?: number;
  maxLength?: number;
  /** The whole value must match. Describe it in `description`: the error only says "does not match". */
  pattern?: RegExp;
}

/** A string. Leading and trailing whitespace is trimmed; empty means unset. */
export function str<const O extends StrOptions = {}>(options?: O): Field<Presence<string, O>> {
  const { minLength, maxLength, pattern } = options ?? {};
  const bounds = [
    minLength !== undefined ? `at least ${minLength} characters` : '',
    maxLength !== undefined ? `at most ${maxLength} characters` : '',
    pattern ? `matching ${String(pattern)}` : '',
  ].filter(Boolean);
  let schema = z.string();
  if (minLength !== undefined) {
    schema = schema.min(minLength, {
      error: (issue) => `too short: ${String(issue.input).length} characters, at least ${minLength} needed`,
      abort: true,
    });
  }
  if (maxLength !== undefined) {
    schema = schema.max(maxLength, {
      error: (issue) => `too long: ${String(issue.input).length} characters, at most ${maxLength} allowed`,
      abort: true,
    });
  }
  if (pattern) schema = schema.regex(wholePattern(pattern), `does not match ${String(pattern)}`);
  return makeField<string, O>(options, {
    expected: bounds.length > 0 ? `a string (${bounds.join(', ')})` : 'a string',
    schema,
  });
}

/** Options of `int`. */
export interface IntOptions extends PresenceOptions<number> {
  min?: number;
  max?: number;
}

/** A decimal integer (`-12`, `+3`, `3000`), optionally bounded. */
export function int<const O extends IntOptions = {}>(options?: O): Field<Presence<number, O>> {
  const { min, max } = options ?? {};
  const expected =
    min !== undefined && max !== undefined
      ? `an integer between ${min} and ${max}`
      : min !== undefined
        ? `an integer >= ${min}`
        : max !== undefined
          ? `an integer <= ${max}`
          : 'an integer';
  let bounded = z.number().int({ error: `expected ${expected}` });
  if (min !== undefined) bounded = bounded.min(min, `out of range: expected ${expected}`);
  if (max !== undefined) bounded = bounded.max(max, `out of range: expected ${expected}`);
  return makeField<number, O>(options, {
    expected,
    schema: z
      .string()
      .regex(/^[+-]?\d+$/, `expected ${expected}`)
      .transform(Number)
      .pipe(bounded),
  });
}

/** A TCP port, 0–65535 (0 asks the OS for a free port, which tests use). */
export function port<const O extends PresenceOptions<number> = {}>(options?: O): Field<Presence<number, O>> {
  const expected = 'a port number (0-65535)';
  return makeField<number, O>(options, {
    expected,
    schema: z
      .string()
      .regex(/^\d{1,5}$/, `expected ${expected}`)
      .transform(Number)
      .pipe(z.number().max(65535, `expected ${expected}`)),
  });
}

const BOOLEAN_TEXT = { true: true, '1': true, false: false, '0': false } as const;

/** A boolean: `true`/`false`/`1`/`0` (case-insensitive). Anything else is an error, not `false`. */
export function bool<const O extends PresenceOptions<boolean> = {}>(
  options?: O,
): Field<Presence<boolean, O>> {
  return makeField<boolean, O>(options, {
    expected: 'true, false, 1 or 0',
    schema: z
      .string()
      .toLowerCase()
      .pipe(z.enum(['true', 'false', '1', '0'], 'expected true, false, 1 or 0'))
      .transform((text) => BOOLEAN_TEXT[text]),
  });
}

/** Options of `url`. */
export interface UrlOptions extends PresenceOptions<string> {
  /** Allowed schemes, with or without the colon: `['mongodb', 'mongodb+srv']`, `['https:']`. */
  protocols?: readonly string[];
}

const SCHEME_AND_AUTHORITY = /^([a-z][a-z0-9+.-]*:)\/\/[^\s/?#]+/i;

/**
 * An absolute URL, returned as the string it was given (drivers want strings). Multi-host URLs such as
 * `mongodb://a:27017,b:27017/db`, which WHATWG `URL` cannot parse, are accepted when they have a scheme and
 * an authority. In errors the user-info part (`user:password@`) is masked.
 */
export function url<const O extends UrlOptions = {}>(options?: O): Field<Presence<string, O>> {
  const protocols = options?.protocols?.map((p) => (p.endsWith(':') ? p : `${p}:`).toLowerCase());
  const expected = protocols
    ? `a URL with scheme ${protocols.map((p) => p.slice(0, -1)).join(', ')}`
    : 'an absolute URL';
  return makeField<string, O>(options, {
    expected,
    schema: z
      .string()
      .refine((raw) => protocolOf(raw) !== undefined, { error: `expected ${expected}`, abort: true })
      .refine((raw) => !protocols || protocols.includes(protocolOf(raw)!), {
        error: (issue) =>
          `scheme ${protocolOf(String(issue.input))!.slice(0, -1)} not allowed: expected ${expected}`,
      }),
    show: (raw) => quote(raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1***@')),
  });
}

function protocolOf(raw: string): string | undefined {
  if (URL.canParse(raw)) return new URL(raw).protocol.toLowerCase();
  return SCHEME_AND_AUTHORITY.exec(raw)?.[1]?.toLowerCase();
}

/** One of a fixed set of strings (case-sensitive). */
export function oneOf<
  const V extends readonly [string, ...string[]],
  const O extends PresenceOptions<V[number]> = {},
>(values: V, options?: O): Field<Presence<V[number], O>> {
  const expected = `one of ${values.join(', ')}`;
  return makeField<V[number], O>(options, {
    expected,
    schema: z.enum(values, `expected ${expected}`) as unknown as z.ZodType<V[number], string>,
  });
}

/** Options of `list`. */
export interface ListOptions extends PresenceOptions<readonly unknown[]> {
  /** Parser of each item (its own default/optional are ignored); by default items are strings. */
  item?: Field<unknown>;
}

/** The item type of a list field: what its `item` parser yields, or string. */
export type ListItem<O> = O extends { item: Field<infer T> } ? T : string;

/**
 * A comma-separated list, e.g. `RS256, ES256`: items are trimmed and empty items dropped; a value with no
 * items at all is an error. Each item goes through `item` when given. The array is frozen.
 */
export function list<const O extends ListOptions = {}>(
  options?: O,
): Field<Presence<readonly ListItem<O>[], O>> {
  const item = options?.item;
  const expected = item ? `a comma-separated list of ${item.expected}` : 'a comma-separated list';
  const items = z
    .array((item?.schema ?? z.string()) as z.ZodType<ListItem<O>, string>)
    .min(1, `expected ${expected}, got no items`);
  // A list of secrets is a secret.
  const presence = (item?.secret ? { ...options, secret: true } : options) as O | undefined;
  return makeField<readonly ListItem<O>[], O>(presence, {
    expected,
    schema: z
      .string()
      .transform((raw) =>
        raw
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .pipe(items)
      .transform((values) => Object.freeze(values)),
  });
}

/** Options of `duration`. */
export interface DurationOptions extends PresenceOptions<number> {
  /** Unit of a bare number such as `300`. Default `ms`. */
  bareUnit?: DurationUnit;
  /** Minimum, in milliseconds. */
  min?: number;
  /** Maximum, in milliseconds. */
  max?: number;
}

export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;

const MS_PER_UNIT: Record<DurationUnit, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration such as `500ms`, `30s`, `5m`, `2h`, `1d` or `1.5s`, returned in milliseconds (rounded). A bare
 * number is read in `bareUnit` (default milliseconds). Defaults are given in milliseconds.
 */
export function duration<const O extends DurationOptions = {}>(options?: O): Field<Presence<number, O>> {
  const { bareUnit = 'ms', min, max } = options ?? {};
  const expected = 'a duration such as 500ms, 30s, 5m, 2h or 1d';
  let milliseconds = z.number().int('too large');
  if (min !== undefined) milliseconds = milliseconds.min(min, `too short: at least ${min}ms`);
  if (max !== undefined) milliseconds = milliseconds.max(max, `too long: at most ${max}ms`);
  return makeField<number, O>(options, {
    expected,
    schema: z
      .string()
      .regex(DURATION, `expected ${expected}`)
      .transform((raw) => {
        const [, amount, unit = bareUnit] = DURATION.exec(raw)!;
        return Math.round(Number(amount) * MS_PER_UNIT[unit as DurationUnit]);
      })
      .pipe(milliseconds),
  });
}

/** Options of `custom`. */
export interface CustomOptions<T> extends PresenceOptions<T> {
  /** What a valid value looks like, in words. */
  expected: string;
  /** Parses a trimmed non-empty value; throws an Error saying what is wrong (without the value). */
  parse: (raw: string) => T;
}

/** A field with a parser of your own, for anything the builders above do not cover. */
export function custom<const O extends CustomOptions<any>>(
  options: O,
): Field<Presence<ReturnType<O['parse']>, O>> {
  return makeField<ReturnType<O['parse']>, O>(options, {
    expected: options.expected,
    schema: z.string().transform((raw, context) => {
      try {
        return options.parse(raw) as ReturnType<O['parse']>;
      } catch (error) {
        context.addIssue({ code: 'custom', message: messageOf(error) });
        return z.NEVER;
      }
    }),
  });
}

/** The pattern anchored at both ends (the whole value must match), without stateful flags. */
function wholePattern(pattern: RegExp): RegExp {
  return new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
