import { describe, expect, it } from 'vitest';
import { routes } from '../src/rest/route-table.js';
import { routeVariables } from '../src/rest/route-variables.js';
import { fieldIssues } from '../src/http/errors.js';

const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;

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
  it('names a nested field by its path, a missing one by its name, and the allowed values of an enum', () => {
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
        ],
        'body',
      ),
    ).toEqual([
      { field: 'openingHours.0.weekday', message: 'must be <= 6' },
      { field: 'status', message: 'is required' },
      { field: 'state', message: 'must be one of pending' },
    ]);
  });
});
