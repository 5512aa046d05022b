import { buildSchema, GraphQLError, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  assertTokenLimit,
  DEFAULT_OPERATION_LIMITS,
  LIST_SIZE_ESTIMATE,
  measureOperation,
  operationLimitErrors,
  parseWithTokenLimit,
} from '../src/index.js';

const schema = buildSchema(`
  type Query { rooms: [Room!]! room(id: ID!): Room }
  type Room { id: ID! name: String tags: [String!]! tables: [Table!]! }
  type Table { id: ID! room: Room }
`);

const details = (error: unknown) => (error as GraphQLError).extensions.details;

describe('token limit', () => {
  it('counts as graphql-js parse({maxTokens}) does, comments excluded', () => {
    const source = '# a comment\n{ rooms { id } }'; // { rooms { id } } = 6 tokens
    expect(() => assertTokenLimit(source, 6)).not.toThrow();
    expect(() => parse(source, { maxTokens: 6 })).not.toThrow();
    expect(() => parse(source, { maxTokens: 5 })).toThrow(/Document contains more th.. 5 tokens/);
    try {
      assertTokenLimit(source, 5);
      expect.unreachable();
    } catch (error) {
      expect((error as GraphQLError).extensions.code).toBe('QUERY_TOO_COMPLEX');
      expect(details(error)).toEqual({ limit: 'tokens', max: 5 });
    }
  });

  it('leaves a lexical error to the parser', () => {
    expect(() => assertTokenLimit('{ rooms { id " } }', 100)).not.toThrow();
    expect(() => parseWithTokenLimit('{ rooms { id " } }', 100)).toThrow(/Syntax Error/);
  });
});

describe('cost', () => {
  it('multiplies by LIST_SIZE_ESTIMATE for each list of objects; scalar lists and single objects add 1', () => {
    expect(measureOperation(schema, '{ rooms { id tags } }').maxCost).toBe(LIST_SIZE_ESTIMATE * 3);
    expect(measureOperation(schema, '{ room(id: 1) { id } }').maxCost).toBe(2);
    expect(measureOperation(schema, '{ rooms { tables { id } } }').maxCost).toBe(
      LIST_SIZE_ESTIMATE * (1 + LIST_SIZE_ESTIMATE * 2),
    );
  });

  it('counts a fragment spread many times once per spread, without re-walking it', () => {
    const spreads = Array.from({ length: 20 }, (_, i) => `r${i}: rooms { ...F }`).join(' ');
    const measures = measureOperation(schema, `{ ${spreads} } fragment F on Room { id name }`);
    expect(measures.maxCost).toBe(20 * LIST_SIZE_ESTIMATE * 3);
    expect(measures.maxAliases).toBe(20);
  });

  it('counts every selection whatever the variables (@skip/@include do not lower the estimate)', () => {
    const skipped = measureOperation(schema, 'query ($s: Boolean!) { rooms @skip(if: $s) { id } }');
    expect(skipped.maxCost).toBe(LIST_SIZE_ESTIMATE * 2);
    expect(skipped.maxDirectives).toBe(1);
  });
});

describe('operationLimitErrors', () => {
  it('names the limit, the maximum and what was found; nothing for a document within the limits', () => {
    const deep = `{ rooms { tables { room { tables { room { tables { room { tables { room { id } } } } } } } } } }`;
    const errors = operationLimitErrors(schema, { query: deep }, DEFAULT_OPERATION_LIMITS);
    // Depth 10 is allowed; the four rounds of Room.tables ↔ Table.room lists are not.
    expect(errors?.map(details)).toEqual([{ limit: 'cost', max: 20_000, actual: 322_210 }]);
    expect(
      operationLimitErrors(schema, { query: '{ rooms { id } }' }, DEFAULT_OPERATION_LIMITS),
    ).toBeUndefined();
    expect(operationLimitErrors(schema, { query: '{ rooms {' }, DEFAULT_OPERATION_LIMITS)).toBeUndefined();
  });
});
