import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationDocument, routes } from '../src/rest/route-table.js';
import { requestSchemas } from '../src/rest/request-schema.js';
import { routeInputs } from '../src/rest/route-inputs.js';
import { routeVariables } from '../src/rest/route-variables.js';
import { fieldIssues } from '../src/http/errors.js';

const apiSdl = readFileSync(resolve(import.meta.dirname, '../../schema/api.graphql'), 'utf8');
const apiSchema = buildSchema(apiSdl);
const routeOf = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;
const inputsOf = (method: string, path: string, schema: GraphQLSchema = apiSchema) => {
  const found = routeOf(method, path);
  return routeInputs(found, schema, operationDocument(found));
};
const route = (method: string, path: string) => inputsOf(method, path);

describe('routeInputs: a route’s body and query names, from the GraphQL schema alone', () => {
  it('takes every field of the input type, or the operation’s other variables, less `except`', () => {
    expect(inputsOf('POST', '/api/tavoli/:id/lock')).toEqual({
      params: ['id'],
      body: { into: 'input', names: ['deviceId', 'operatorName', 'ttl'] },
    });
    expect(inputsOf('POST', '/api/prenotazioni/:id/stato').body).toEqual({ names: ['nuovoStato'] });
    expect(inputsOf('GET', '/api/prenotazioni/sync').query).toEqual({
      names: ['modifiedSince', 'dal', 'al', 'limit'],
    });
    // A single create takes every PrenotazioneInput field but the batch's idempotency key.
    const create = inputsOf('POST', '/api/prenotazioni').body!.names;
    expect(create).toEqual(expect.arrayContaining(['covers', 'autoAssign', 'opzioneId', 'state']));
    expect(create).not.toContain('externalId');
  });

  it('hands a field added to an input type to the route and its request schema, with no second edit', () => {
    const grown = buildSchema(apiSdl.replace('input TavoloPatch {', 'input TavoloPatch {\n  colour: String'));
    expect(inputsOf('PATCH', '/api/tavoli/:id', grown).body!.names).toContain('colour');
    const patch = routeOf('PATCH', '/api/tavoli/:id');
    const body = requestSchemas(patch, grown, operationDocument(patch)).body!;
    expect((body.properties as Record<string, unknown>).colour).toEqual({ type: ['string', 'null'] });
    expect(
      routeVariables(inputsOf('PATCH', '/api/tavoli/:id', grown), {
        params: { id: 't1' },
        query: {},
        body: { colour: 'red' },
      }),
    ).toEqual({ id: 't1', input: { colour: 'red' } });
  });
});

describe('routeVariables: a validated request as its operation variables, from the route-table entry', () => {
  it('puts the body fields into `into`, ignoring others (a tenantId never comes from the body)', () => {
    const variables = routeVariables(route('PATCH', '/api/tavoli/:id'), {
      params: { id: 't1' },
      query: {},
      body: { seats: 6, tenantId: 'other', deviceId: 'd1' },
    });
    expect(variables).toEqual({ id: 't1', input: { seats: 6, deviceId: 'd1' } });
  });

  it('puts top-level body fields and query names as variables of their own', () => {
    expect(
      routeVariables(route('POST', '/api/prenotazioni/:id/annulla'), {
        params: { id: 'p1' },
        query: {},
        body: { motivo: 'malato' },
      }),
    ).toEqual({ id: 'p1', motivo: 'malato' });
    expect(
      routeVariables(route('GET', '/api/prenotazioni/sync'), {
        params: {},
        query: { modifiedSince: '2026-01-01T00:00:00Z', limit: 5 },
        body: undefined,
      }),
    ).toEqual({ modifiedSince: '2026-01-01T00:00:00Z', limit: 5 });
  });

  it('gives a query filter only the parameters sent (absent ones are "not given", not null)', () => {
    expect(
      routeVariables(route('GET', '/api/tavoli'), { params: {}, query: { attivo: true }, body: undefined }),
    ).toEqual({ filter: { attivo: true } });
  });
});

describe('fieldIssues: schema errors in the REST error body’s words', () => {
  it('names a nested field by its path, a missing or unknown one by its name, and the allowed values of an enum', () => {
    expect(
      fieldIssues(
        [
          {
            instancePath: '/openingHours/0/weekday',
            keyword: 'maximum',
            message: 'must be <= 6',
            params: {},
          },
          { instancePath: '', keyword: 'required', params: { missingProperty: 'status' } },
          { instancePath: '/state', keyword: 'enum', params: { allowedValues: ['pending', null] } },
          {
            instancePath: '/rules/0',
            keyword: 'additionalProperties',
            params: { additionalProperty: 'colour' },
          },
        ],
        'body',
      ),
    ).toEqual([
      { field: 'openingHours.0.weekday', message: 'must be <= 6' },
      { field: 'status', message: 'is required' },
      { field: 'state', message: 'must be one of pending' },
      { field: 'rules.0.colour', message: 'is not a field of this object' },
    ]);
  });
});
