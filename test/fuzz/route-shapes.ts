import type { RestRoute } from '../../gateway/src/rest/routes.js';

/** What the fuzzer knows of one route: its method and path, and the query and body names it reads. */
export interface RouteShape {
  method: string;
  path: string;
  /** `:name` segments of the path. */
  params: string[];
  queryNames: string[];
  bodyFields: string[];
}

/**
 * Derives the route's input names by running its `variables` function on recording stand-ins: the query
 * names it asks for and the body fields it reads. A new route, or a new field, is fuzzed without editing
 * the fuzzer. Pure apart from calling `variables`.
 */
export function routeShape(route: RestRoute): RouteShape {
  const queryNames = new Set<string>();
  const bodyFields = new Set<string>();
  const query = new URLSearchParams();
  for (const method of ['get', 'getAll', 'has'] as const) {
    const original = query[method].bind(query) as (name: string) => unknown;
    (query as unknown as Record<string, unknown>)[method] = (name: string) => {
      queryNames.add(name);
      return original(name);
    };
  }
  const record = (key: string | symbol) => {
    if (typeof key === 'string') bodyFields.add(key);
  };
  const body = new Proxy<Record<string, unknown>>(
    {},
    {
      get: (target, key) => (record(key), Reflect.get(target, key)),
      has: (target, key) => (record(key), Reflect.has(target, key)),
      getOwnPropertyDescriptor: (target, key) => (record(key), Reflect.getOwnPropertyDescriptor(target, key)),
    },
  );
  const params = route.path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
  try {
    route.variables({ params: Object.fromEntries(params.map((p) => [p, 'x'])), query, body });
  } catch {
    // a route may refuse the empty stand-ins; the names it read before refusing are kept
  }
  // Keys JavaScript itself asks for (Symbol.toPrimitive, toJSON, then…) are not body fields.
  for (const builtin of ['toJSON', 'then', 'constructor']) bodyFields.delete(builtin);
  return {
    method: route.method,
    path: route.path,
    params,
    queryNames: [...queryNames],
    bodyFields: [...bodyFields],
  };
}
