import type { RouteInputs } from './route-inputs.js';

/** A request as fastify hands it over, already validated against the route's schemas (request-schema.ts). */
export interface ValidatedRequest {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
}

/**
 * The variables of a route's operation: each path parameter, and the body's and query's fields (routeInputs:
 * inside the variable `into`, or top level). Fields a body carries beyond those (e.g. a `tenantId`) are
 * ignored: the tenant always comes from the token. Pure.
 */
export function routeVariables(inputs: RouteInputs, request: ValidatedRequest): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...request.params };
  const place = (source: Readonly<Record<string, unknown>>, names: readonly string[], into?: string) => {
    const picked: Record<string, unknown> = {};
    for (const name of names) if (Object.hasOwn(source, name)) picked[name] = source[name];
    if (into) variables[into] = picked;
    else Object.assign(variables, picked);
  };
  const { body, query } = inputs;
  if (body) place((request.body ?? {}) as Record<string, unknown>, body.names, body.into);
  if (query) place(request.query, query.names, query.into);
  return variables;
}
