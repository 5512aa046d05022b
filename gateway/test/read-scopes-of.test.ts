import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readScopesOf } from '../src/graphql/read-cache/read-scopes-of.js';

const schema = buildSchema(readFileSync(new URL('../../schema/api.graphql', import.meta.url), 'utf8'));
const scopes = (query: string, operationName?: string) => readScopesOf(schema, query, operationName, 10_000);

describe('readScopesOf: which /graphql answers the read cache may keep, and under which scopes', () => {
  it('names the scopes of room and table fields, through fragments and nested selections', () => {
    expect(scopes('{ sale { name tavoli { name seats status } } }')).toEqual(['sale', 'tavoli']);
    expect(scopes('{ tavoli(filter: { salaId: "r" }) { id x y __typename } }')).toEqual(['tavoli']);
    expect(
      scopes('query Q($id: ID!) { sala(id: $id) { ...S } } fragment S on Sala { codice width }'),
    ).toEqual(['sale']);
    expect(scopes('{ tavolo(id: "t") { sala { codice } } }')).toEqual(['sale', 'tavoli']);
    expect(scopes('{ __typename }')).toEqual([]);
    expect(scopes('query Q($on: Boolean!) { tavoli { name @include(if: $on) } }')).toEqual(['tavoli']);
  });

  it('keeps nothing that changes without a write to rooms or tables', () => {
    expect(scopes('{ tavoli { name lock { expiresAt } } }')).toBeNull();
    expect(scopes('{ tavoli { name prenotazioni { id } } }')).toBeNull();
    expect(scopes('{ prenotazioni { id } }')).toBeNull();
    expect(scopes('{ combinazioni { id } }')).toBeNull();
    expect(scopes('{ __schema { types { name } } }')).toBeNull();
    expect(scopes('{ tavoli { name } ...F } fragment F on Query { listaAttesa { id } }')).toBeNull();
  });

  it('keeps only queries, and only a document it can read', () => {
    expect(scopes('mutation { deleteSala(id: "r") { id } }')).toBeNull();
    expect(scopes('subscription { tavoloStatoCambiato { id } }')).toBeNull();
    expect(scopes('{ tavoli { name')).toBeNull();
    expect(scopes('{ tavoli { nope } }')).toBeNull();
    expect(scopes('{ sale { name } } fragment X on Nope { a }')).toBeNull();
    expect(scopes('{ sale { name @defer } }')).toBeNull();
  });

  it('picks the operation by name; a second operation of the document is checked too', () => {
    const two = 'query A { sale { name } } query B { tavoli { name } }';
    expect(scopes(two)).toBeNull(); // no name: Apollo Server refuses it
    // Every definition counts: B's scope too (more scopes only means more writes replace the answer).
    expect(scopes(two, 'A')).toEqual(['sale', 'tavoli']);
    expect(scopes(two, 'C')).toBeNull();
    expect(scopes('query A { sale { name } } mutation M { deleteSala(id: "r") { id } }', 'A')).toBeNull();
  });
});
