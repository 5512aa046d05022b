import type { RestRoute, RouteLink } from '../../rest/rest-route.js';
import type { JsonSchema, SchemaRegistry } from './json-schema.js';

/** A route with where its success body holds an id (a runtime expression), if it does. */
export interface AnsweredRoute {
  route: RestRoute;
  idAt: string | undefined;
}

const deref = (schema: JsonSchema | undefined, registry: SchemaRegistry): JsonSchema | undefined => {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? registry.schemas[ref.slice('#/components/schemas/'.length)] : schema;
};

const hasId = (schema: JsonSchema | undefined) =>
  typeof schema?.properties === 'object' && schema.properties !== null && 'id' in schema.properties;

/**
 * Where a success body's id is, as an OpenAPI runtime expression: an object's `id`, or a list's first item's;
 * undefined when the body has none (a lock answers `tableId`, a batch `batchId`: such links are declared by hand).
 */
export function idPointer(body: JsonSchema, registry: SchemaRegistry): string | undefined {
  const resolved = deref(body, registry);
  if (hasId(resolved)) return '$response.body#/id';
  if (resolved?.type === 'array' && hasId(deref(resolved.items as JsonSchema, registry))) {
    return '$response.body#/0/id';
  }
  return undefined;
}

const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/**
 * The links each route's answer feeds, by route: every route whose path is the answering route's path plus one
 * `:param` segment (and maybe more static ones) takes the answer's id as that parameter, the answering route's own
 * path parameters passed along (`POST /api/attesa` → `POST /api/attesa/{id}/siedi`; `GET /api/webhooks/{id}/consegne`
 * → `…/consegne/{consegnaId}/reinvia`). So a generated client or a stateful tester (Schemathesis) follows the id
 * instead of guessing one. A route an object's id reaches (a create) is not linked from a list as well.
 */
export function idLinks(answered: readonly AnsweredRoute[]): Map<RestRoute, Record<string, RouteLink>> {
  const links = new Map<RestRoute, Record<string, RouteLink>>();
  const reached = new Set<RestRoute>();
  const link = (from: RestRoute, idAt: string, target: RestRoute) => {
    const below = target.path.slice(from.path.length);
    const param = /^\/:(\w+)(\/|$)/.exec(below)?.[1];
    const own = pathParams(from.path);
    if (!param || !target.path.startsWith(from.path) || pathParams(target.path).length !== own.length + 1)
      return;
    const parameters = Object.fromEntries([...own.map((p) => [p, `$request.path.${p}`]), [param, idAt]]);
    links.set(from, { ...links.get(from), [target.operation]: { operation: target.operation, parameters } });
    reached.add(target);
  };
  const byObject = answered.filter((a) => a.idAt === '$response.body#/id');
  for (const { route, idAt } of byObject) for (const target of answered) link(route, idAt!, target.route);
  const unreached = answered.filter((a) => !reached.has(a.route));
  for (const { route, idAt } of answered.filter((a) => a.idAt && !byObject.includes(a))) {
    for (const target of unreached) link(route, idAt!, target.route);
  }
  return links;
}
