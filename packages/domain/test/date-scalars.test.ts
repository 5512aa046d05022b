import { buildSchema, graphql, type GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  DateTimeScalar,
  LocalDateScalar,
  LocalDateTimeScalar,
  LocalTimeScalar,
  withDateScalars,
} from '../src/date-scalars.js';

/** Each scalar with text it takes unchanged (as the services' parsers accepted it) and text it refuses. */
const CASES: [GraphQLScalarType, string[], string[]][] = [
  [
    LocalDateScalar,
    ['2026-12-24', '2024-02-29', ' 2026-01-01 '],
    ['2026-02-29', '2026-13-01', '2026-12-24T20:00', '24/12/2026', '', 'domani'],
  ],
  [
    LocalDateTimeScalar,
    [
      '2026-12-24T20:00',
      '2026-12-24T20:00:00',
      '2026-12-24 20:00:30.123456',
      '2026-12-24T20:00:00Z',
      '2026-12-24T20:00+01:00',
      '2026-12-24T20:00:00-0530',
    ],
    ['2026-12-24', '2026-02-30T20:00', '2026-12-24T24:00', '2026-12-24T20:00+19:00', '20:00', 'x'],
  ],
  [LocalTimeScalar, ['00:00', '20:30', '23:59', '24:00'], ['24:01', '7:30', '20:00:00', '20h30', '']],
  [
    DateTimeScalar,
    ['2026-12-24T19:00:00.000Z', '2026-12-24T20:00:00+01:00', '2026-12-24T19:00Z'],
    ['2026-12-24T20:00', '2026-12-24', '2026-02-30T19:00:00Z', 'yesterday'],
  ],
];

describe('date scalars', () => {
  for (const [scalar, valid, invalid] of CASES) {
    describe(scalar.name, () => {
      it('takes a valid value, from a variable or a literal, as the same text', () => {
        for (const text of valid) {
          expect(scalar.parseValue(text)).toBe(text);
          expect(scalar.parseLiteral({ kind: 'StringValue', value: text } as never)).toBe(text);
        }
      });

      it('refuses malformed text and non-strings, naming the value and the format', () => {
        for (const text of invalid) {
          expect(() => scalar.parseValue(text), text).toThrow(
            `${scalar.name} cannot represent ${JSON.stringify(text)}: expected`,
          );
          expect(() => scalar.parseLiteral({ kind: 'StringValue', value: text } as never), text).toThrow(
            `${scalar.name} cannot represent`,
          );
        }
        expect(() => scalar.parseValue(20260101)).toThrow('a non-string value 20260101');
        expect(() => scalar.parseLiteral({ kind: 'IntValue', value: '20260101' } as never)).toThrow(
          'a non-string value',
        );
      });

      it("serializes the service's text unchanged and refuses anything else", () => {
        for (const text of valid) expect(scalar.serialize(text)).toBe(text);
        expect(() => scalar.serialize(new Date(0))).toThrow(`${scalar.name} cannot represent`);
      });
    });
  }
});

describe('withDateScalars', () => {
  const schema = withDateScalars(
    buildSchema(`
      scalar LocalDate
      scalar DateTime
      scalar Other
      type Query { day(date: LocalDate!): LocalDate!, since(at: DateTime): DateTime, other(v: Other): Other }
    `),
  );
  const rootValue = {
    day: ({ date }: { date: string }) => date,
    since: ({ at }: { at: string }) => at,
    other: ({ v }: { v: unknown }) => v,
  };
  const run = (source: string, variableValues?: Record<string, unknown>) =>
    graphql({ schema, source, rootValue, ...(variableValues ? { variableValues } : {}) });

  it('gives the declared date scalars their parsing: a malformed literal fails validation', async () => {
    const result = await run('{ day(date: "2026-02-30") }');
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.message).toBe(
      'Expected value of type "LocalDate!", found "2026-02-30"; LocalDate cannot represent "2026-02-30": expected a calendar date YYYY-MM-DD',
    );
  });

  it('refuses a malformed variable before running a resolver', async () => {
    const result = await run('query ($at: DateTime) { since(at: $at) }', { at: '2026-12-24T20:00' });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.message).toBe(
      'Variable "$at" got invalid value "2026-12-24T20:00"; DateTime cannot represent "2026-12-24T20:00": expected an ISO 8601 date-time with Z or an offset',
    );
  });

  it('passes valid dates through as sent and leaves other scalars alone', async () => {
    const result = await run('query ($at: DateTime) { day(date: "2026-12-24") since(at: $at) other(v: 5) }', {
      at: '2026-12-24T20:00:00+01:00',
    });
    expect(result).toEqual({
      data: { day: '2026-12-24', since: '2026-12-24T20:00:00+01:00', other: 5 },
    });
  });
});
