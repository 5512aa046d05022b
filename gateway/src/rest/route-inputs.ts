import { getNamedType, isInputObjectType, parse, type GraphQLSchema } from 'graphql';
import { operationOf, variableType } from '../pages/openapi/json-schema.js';
import type { InputSpec, RestRoute } from './rest-route.js';

/** Where a part of the request (body or query) goes: its names, inside the variable `into` or top level. */
export interface InputPlace {
  names: readonly string[];
  into?: string;
}

/** The names a route reads from its body and its query, derived from its operation and the schema. */
export interface RouteInputs {
  params: readonly string[];
  body?: InputPlace;
  query?: InputPlace;
}

/** `:name` segments of a route path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map(([, name]) => name!);
}

/**
 * The body fields and query names of a route, from the GraphQL schema alone: every field of the input type of
 * the variable `into`, or, without `into`, every variable of the operation that is not a path parameter; less
 * `except`. So a field added to an input type reaches the route, its validation and /openapi.json at once.
 */
export function routeInputs(route: RestRoute, schema: GraphQLSchema, document: string): RouteInputs {
  const { operation } = operationOf(parse(document), route.operation);
  const params = pathParams(route.path);
  const { body, query } = route.docs;
  if (body && query && !body.into && !query.into) {
    throw new Error(`${route.operation}: a body and a query cannot both be top-level variables`);
  }
  const taken = new Set([...params, body?.into, query?.into].filter((name) => name !== undefined));
  const place = (spec: InputSpec): InputPlace => {
    const names = spec.into
      ? Object.keys(inputObjectFields(schema, operation, spec.into))
      : (operation.variableDefinitions ?? []).map((v) => v.variable.name.value).filter((n) => !taken.has(n));
    for (const name of spec.except ?? []) {
      if (!names.includes(name)) throw new Error(`${route.operation}: except names ${name}, not an input`);
    }
    const except = new Set(spec.except);
    return { names: names.filter((name) => !except.has(name)), ...(spec.into ? { into: spec.into } : {}) };
  };
  return { params, ...(body ? { body: place(body) } : {}), ...(query ? { query: place(query) } : {}) };
}

function inputObjectFields(
  schema: GraphQLSchema,
  operation: ReturnType<typeof operationOf>['operation'],
  variable: string,
) {
  const named = getNamedType(variableType(schema, operation, variable));
  if (!isInputObjectType(named)) throw new Error(`$${variable} is not an input object (${named.name})`);
  return named.getFields();
}
