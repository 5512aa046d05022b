/**
 * A field describes one environment variable: how to parse its text, what to use when it is unset, and
 * whether its value may appear in error messages. Fields are made by the builders in ./fields.ts and read
 * by `loadConfig`.
 */
export interface Field<T> {
  /** What a valid value looks like, in words, e.g. `an integer between 0 and 65535`. Shown in errors. */
  readonly expected: string;
  /** A secret's value never appears in an error message. */
  readonly secret: boolean;
  /** Free text for READMEs and error messages. */
  readonly description: string | undefined;
  /** Present when the variable may be unset: the value used then (`undefined` for optional fields). */
  readonly whenUnset: { readonly value: T } | undefined;
  /**
   * Parses a trimmed, non-empty value. Throws `InvalidValueError` (or any Error) whose message says what is
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

/** Builds a field from its parts, deriving `whenUnset` from `default` / `optional`. */
export function makeField<T, O extends PresenceOptions<unknown>>(
  options: O | undefined,
  parts: { expected: string; parse: (raw: string) => T; show?: (raw: string) => string },
): Field<Presence<T, O>> {
  const secret = options?.secret === true;
  const whenUnset =
    options?.default !== undefined
      ? { value: options.default as T }
      : options?.optional === true
        ? { value: undefined }
        : undefined;
  const field: Field<T | undefined> = {
    expected: parts.expected,
    secret,
    description: options?.description,
    whenUnset,
    parse: parts.parse,
    ...(secret ? {} : { show: parts.show ?? quote }),
  };
  return field as unknown as Field<Presence<T, O>>;
}

const MAX_SHOWN = 80;

/** Default display of a rejected, non-secret value: quoted and cut at 80 characters. */
export function quote(raw: string): string {
  const cut = raw.length > MAX_SHOWN ? `${raw.slice(0, MAX_SHOWN)}…` : raw;
  return JSON.stringify(cut);
}
