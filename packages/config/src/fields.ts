import type { Field, Presence, PresenceOptions } from './field.js';
import { InvalidValueError, makeField, quote } from './field.js';

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
  return makeField<string, O>(options, {
    expected: bounds.length > 0 ? `a string (${bounds.join(', ')})` : 'a string',
    parse: (raw) => {
      if (minLength !== undefined && raw.length < minLength) {
        throw new InvalidValueError(`too short: ${raw.length} characters, at least ${minLength} needed`);
      }
      if (maxLength !== undefined && raw.length > maxLength) {
        throw new InvalidValueError(`too long: ${raw.length} characters, at most ${maxLength} allowed`);
      }
      if (pattern && !wholeMatch(pattern, raw))
        throw new InvalidValueError(`does not match ${String(pattern)}`);
      return raw;
    },
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
  return makeField<number, O>(options, {
    expected,
    parse: (raw) => {
      const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value)) throw new InvalidValueError(`expected ${expected}`);
      if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
        throw new InvalidValueError(`out of range: expected ${expected}`);
      }
      return value;
    },
  });
}

/** A TCP port, 0–65535 (0 asks the OS for a free port, which tests use). */
export function port<const O extends PresenceOptions<number> = {}>(options?: O): Field<Presence<number, O>> {
  const expected = 'a port number (0-65535)';
  return makeField<number, O>(options, {
    expected,
    parse: (raw) => {
      const value = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!(value >= 0 && value <= 65535)) throw new InvalidValueError(`expected ${expected}`);
      return value;
    },
  });
}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** A boolean: `true`/`false`/`1`/`0` (case-insensitive). Anything else is an error, not `false`. */
export function bool<const O extends PresenceOptions<boolean> = {}>(
  options?: O,
): Field<Presence<boolean, O>> {
  return makeField<boolean, O>(options, {
    expected: 'true, false, 1 or 0',
    parse: (raw) => {
      const lower = raw.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      throw new InvalidValueError('expected true, false, 1 or 0');
    },
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
    parse: (raw) => {
      const protocol = protocolOf(raw);
      if (protocol === undefined) throw new InvalidValueError(`expected ${expected}`);
      if (protocols && !protocols.includes(protocol)) {
        throw new InvalidValueError(`scheme ${protocol.slice(0, -1)} not allowed: expected ${expected}`);
      }
      return raw;
    },
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
    parse: (raw) => {
      if (!values.includes(raw)) throw new InvalidValueError(`expected ${expected}`);
      return raw as V[number];
    },
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
  const field = makeField<readonly ListItem<O>[], O>(options, {
    expected,
    parse: (raw) => {
      const parts = raw
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0);
      if (parts.length === 0) throw new InvalidValueError(`expected ${expected}, got no items`);
      const values = parts.map((part, index) => {
        if (!item) return part as ListItem<O>;
        try {
          return item.parse(part) as ListItem<O>;
        } catch (error) {
          throw new InvalidValueError(`item ${index + 1}: ${messageOf(error)}`);
        }
      });
      return Object.freeze(values);
    },
  });
  if (!item?.secret) return field;
  const { show: _hidden, ...rest } = field;
  return { ...rest, secret: true };
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

const MS_PER_UNIT: Record<DurationUnit, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration such as `500ms`, `30s`, `5m`, `2h`, `1d` or `1.5s`, returned in milliseconds (rounded). A bare
 * number is read in `bareUnit` (default milliseconds). Defaults are given in milliseconds.
 */
export function duration<const O extends DurationOptions = {}>(options?: O): Field<Presence<number, O>> {
  const { bareUnit = 'ms', min, max } = options ?? {};
  const expected = 'a duration such as 500ms, 30s, 5m, 2h or 1d';
  return makeField<number, O>(options, {
    expected,
    parse: (raw) => {
      const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(raw);
      if (!match) throw new InvalidValueError(`expected ${expected}`);
      const unit = (match[2] ?? bareUnit) as DurationUnit;
      const value = Math.round(Number(match[1]) * MS_PER_UNIT[unit]);
      if (!Number.isSafeInteger(value)) throw new InvalidValueError('too large');
      if (min !== undefined && value < min) throw new InvalidValueError(`too short: at least ${min}ms`);
      if (max !== undefined && value > max) throw new InvalidValueError(`too long: at most ${max}ms`);
      return value;
    },
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
  return makeField<ReturnType<O['parse']>, O>(options, { expected: options.expected, parse: options.parse });
}

function wholeMatch(pattern: RegExp, raw: string): boolean {
  const anchored = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''));
  return anchored.test(raw);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
