import type { RestRoute } from '../../gateway/src/rest/route-table.js';

/** What the fuzzer knows of one route: its method and path, and the query and body names it reads. */
export interface RouteShape {
  method: string;
  path: string;
  /** `:name` segments of the path. */
  params: string[];
  queryNames: string[];
  bodyFields: string[];
}

/** The route's input names, from its route-table entry (the fields its request schema documents). Pure. */
export function routeShape(route: RestRoute): RouteShape {
  const params = route.path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
  return {
    method: route.method,
    path: route.path,
    params,
    queryNames: [...(route.docs.query?.names ?? [])],
    bodyFields: [...(route.docs.body?.fields ?? [])],
  };
}
