import type { z } from 'zod';

/**
 * A field describes one environment variable: the zod schema that turns its (trimmed, non-empty) text into a
 * value, what to use when it is unset, and whether its value may appear in error messages. Fields are made by
 * the builders in ./fields.ts and read by `loadConfig`, which runs every field's schema in one zod object so
 * that every bad variable is reported at once.
 */
export interface Field<T> {
  /** From the trimmed, non-empty text to the value; its issues say what is wrong, never the value. */
  readonly schema: z.ZodType<T, string>;
  /** What a valid value looks like, in words, e.g. `an integer between 0 and 65535`. Shown in errors. */
  readonly expected: string;
  /** A secret's value never appears in an error message. */
  readonly secret: boolean;
  /** Free text for READMEs and error messages. */
  readonly description: string | undefined;
  /** Present when the variable may be unset: the value used then (`undefined` for optional fields). */
  readonly whenUnset: { readonly value: T } | undefined;
  /**
   * Parses a trimmed, non-empty value with `schema`. Throws `InvalidValueError` whose message says what is
   * wrong without repeating the value; `loadConfig` adds the value itself unless the field is secret.
   */
  parse(raw: string): T;
  /** How the raw value may be shown in an error (e.g. a URL with its password masked); absent for secrets. */
  show?(raw: string): string;
}

/** Options every builder accepts. */
export interface CommonOptions {
  /** Never echo the value in errors (passwords, signing secrets, tokens). */
  secret?: boolean;
  description?: string;
}

/** Options of builders whose variable may be left unset. */
export interface PresenceOptions<T> extends CommonOptions {
  /** Value when the variable is unset or empty. */
  default?: T;
  /** When true (and no default), an unset variable yields `undefined` instead of an error. */
  optional?: boolean;
}

/**
 * The type a field yields given its options: `T` when required or defaulted, `T | undefined` when
 * `optional: true` without a default.
 */
export type Presence<T, O> = O extends { default: T } ? T : O extends { optional: true } ? T | undefined : T;

/** Thrown by a field's `parse`: the message says what is wrong, never the value. */
export class InvalidValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidValueError';
  }
}

/** The first issue of a failed parse, as the message of a field error (`item 2: …` inside a list). */
export function issueMessage(issue: z.core.$ZodIssue, depth = 0): string {
  const item = issue.path.slice(depth).find((key) => typeof key === 'number');
  return item === undefined ? issue.message : `item ${item + 1}: ${issue.message}`;
}

/** Builds a field from its parts, deriving `whenUnset` from `default` / `optional`. */
export function makeField<T, O extends PresenceOptions<unknown>>(
  options: O | undefined,
  parts: { expected: string; schema: z.ZodType<T, string>; show?: (raw: string) => string },
): Field<Presence<T, O>> {
  const secret = options?.secret === true;
  const whenUnset =
    options?.default !== undefined
      ? { value: options.default as T }
      : options?.optional === true
        ? { value: undefined }
        : undefined;
  const field: Omit<Field<T | undefined>, 'schema'> = {
    expected: parts.expected,
    secret,
    description: options?.description,
    whenUnset,
    parse: (raw) => {
      const result = parts.schema.safeParse(raw);
      if (result.success) return result.data;
      throw new InvalidValueError(issueMessage(result.error.issues[0]!));
    },
    ...(secret ? {} : { show: parts.show ?? quote }),
  };
  // Not enumerable: a field printed (test names, logs) stays its description, not zod's internals.
  Object.defineProperty(field, 'schema', { value: parts.schema, enumerable: false });
  return field as unknown as Field<Presence<T, O>>;
}

const MAX_SHOWN = 80;

/** Default display of a rejected, non-secret value: quoted and cut at 80 characters. */
export function quote(raw: string): string {
  const cut = raw.length > MAX_SHOWN ? `${raw.slice(0, MAX_SHOWN)}…` : raw;
  return JSON.stringify(cut);
}
