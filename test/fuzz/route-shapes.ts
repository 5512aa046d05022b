import type { GraphQLSchema } from 'graphql';
import { operationDocument, type RestRoute } from '../../gateway/src/rest/route-table.js';
import { routeInputs } from '../../gateway/src/rest/route-inputs.js';

/** What the fuzzer knows of one route: its method and path, and the query and body names it reads. */
export interface RouteShape {
  method: string;
  path: string;
  /** `:name` segments of the path. */
  params: string[];
  queryNames: string[];
  bodyFields: string[];
}

/** The route's input names, as the gateway derives them from the API schema (what its request schema documents). */
export function routeShape(route: RestRoute, schema: GraphQLSchema): RouteShape {
  const inputs = routeInputs(route, schema, operationDocument(route));
  return {
    method: route.method,
    path: route.path,
    params: [...inputs.params],
    queryNames: [...(inputs.query?.names ?? [])],
    bodyFields: [...(inputs.body?.names ?? [])],
  };
}
