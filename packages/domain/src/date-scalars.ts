import { GraphQLError, GraphQLScalarType, isScalarType, Kind, type GraphQLSchema } from 'graphql';
import { parseLocalDate, parseRestaurantDateTime } from './local-time.js';

/**
 * The GraphQL scalars of dates and times (docs/api.md, "Dates and times": typed scalars, not `String`), one
 * definition for every subgraph and the gateway. Each has the meaning of graphql-scalars' scalar of the same name
 * and accepts exactly the text the services' parsers accepted when the fields were `String`, so a malformed date
 * is refused while the operation is validated (a literal) or its variables coerced, before any resolver runs.
 *
 * Values stay strings both ways: an input is handed to the resolver as sent (the services parse it with the
 * restaurant's zone), an output is the service's text, unchanged, so every response is byte-for-byte what the
 * `String` fields answered. graphql-scalars itself is not used: its `DateTime` turns strings into `Date` objects
 * (an output `2026-01-01T10:00:00+01:00` would come back as `…09:00:00.000Z`) and it has no scalar for the
 * interface's local date-time with an optional offset.
 */

const CLOCK = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
const ZONE_DESIGNATOR = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** `YYYY-MM-DD`, a real calendar day (the services trim surrounding blanks). */
export function isLocalDate(value: string): boolean {
  return parseLocalDate(value) !== null;
}

/** ISO 8601 date-time, restaurant-local without a zone designator, that instant with `Z` or an offset. */
export function isLocalDateTime(value: string): boolean {
  return parseRestaurantDateTime(value, 'UTC') !== null;
}

/** ISO 8601 date-time with `Z` or an offset: an instant. */
export function isInstant(value: string): boolean {
  return ZONE_DESIGNATOR.test(value.trim()) && isLocalDateTime(value);
}

/** `HH:MM` from 00:00 to 23:59, and 24:00 (the end of a day, as a closing time). */
export function isLocalTime(value: string): boolean {
  return CLOCK.test(value);
}

interface DateScalarSpec {
  readonly name: string;
  readonly expected: string;
  readonly valid: (value: string) => boolean;
}

const refusal = (spec: DateScalarSpec, shown: string) =>
  `${spec.name} cannot represent ${shown}: expected ${spec.expected}`;

function dateScalar(spec: DateScalarSpec): GraphQLScalarType<string, string> {
  return new GraphQLScalarType<string, string>({
    // The description is the schema file's (each subgraph declares the scalar in its schema.graphql).
    name: spec.name,
    // Outputs are the services' own text, passed through unchanged.
    serialize: (value) => {
      if (typeof value !== 'string') throw new GraphQLError(refusal(spec, 'a non-string value'));
      return value;
    },
    // A variable: graphql-js reports `Variable "$x" got invalid value …; <this message>`.
    parseValue: (value) => {
      if (typeof value !== 'string')
        throw new GraphQLError(refusal(spec, `a non-string value ${JSON.stringify(value)}`));
      if (!spec.valid(value)) throw new GraphQLError(refusal(spec, JSON.stringify(value)));
      return value;
    },
    // A literal: graphql-js reports `Expected value of type "<type>", found <literal>; <this message>`.
    parseLiteral: (node) => {
      if (node.kind !== Kind.STRING) throw new TypeError(refusal(spec, 'a non-string value'));
      if (!spec.valid(node.value)) throw new TypeError(refusal(spec, JSON.stringify(node.value)));
      return node.value;
    },
  });
}

export const LocalDateScalar = dateScalar({
  name: 'LocalDate',
  expected: 'a calendar date YYYY-MM-DD',
  valid: isLocalDate,
});

export const LocalDateTimeScalar = dateScalar({
  name: 'LocalDateTime',
  expected: 'an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS]',
  valid: isLocalDateTime,
});

export const LocalTimeScalar = dateScalar({
  name: 'LocalTime',
  expected: 'a time HH:MM',
  valid: isLocalTime,
});

export const DateTimeScalar = dateScalar({
  name: 'DateTime',
  expected: 'an ISO 8601 date-time with Z or an offset',
  valid: isInstant,
});

/** The scalars by name. */
export const DATE_SCALARS = {
  LocalDate: LocalDateScalar,
  LocalDateTime: LocalDateTimeScalar,
  LocalTime: LocalTimeScalar,
  DateTime: DateTimeScalar,
} as const;

export type DateScalarName = keyof typeof DATE_SCALARS;

/**
 * Gives the date scalars a schema declares (built from SDL, where a scalar passes anything through) their parsing
 * and serialization, in place (as @apollo/subgraph does with a scalar's resolvers); returns the schema. Used on
 * each subgraph's schema, on the gateway's API schema (so that a malformed date is refused before the query is
 * planned) and wherever a schema is built to check inputs.
 */
export function withDateScalars(schema: GraphQLSchema): GraphQLSchema {
  for (const scalar of Object.values(DATE_SCALARS)) {
    const declared = schema.getType(scalar.name);
    if (!isScalarType(declared)) continue;
    declared.serialize = scalar.serialize;
    declared.parseValue = scalar.parseValue;
    declared.parseLiteral = scalar.parseLiteral;
  }
  return schema;
}
