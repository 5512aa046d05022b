import type { ErrorCode } from '@coperto/errors';
import type { OperationResults } from './generated/operation-types.js';
import type { OperationName } from './operations.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a part of the request goes; its names come from the schema (route-inputs.ts). */
export interface InputSpec {
  into?: string;
  /** Names of the input the route does not take (e.g. the batch's `externalId` on a single create). */
  except?: readonly string[];
}

/**
 * What the OpenAPI document says about a route beyond what the route table already tells (path, method,
 * status, operation). Field types come from the operation's GraphQL variables and selection set.
 */
export interface RouteDocs {
  summary: string;
  description?: string;
  /** The group in the reference (e.g. `Tavoli`). */
  tag: string;
  /**
   * The route reads a JSON body: the fields of the input type of the variable `into` (e.g. `input`), or, when
   * `into` is absent, the operation's variables that are not path parameters (route-inputs.ts). Their JSON
   * Schema comes from the GraphQL type of each field plus its entry in rest/input-constraints.ts; other fields
   * of a body are ignored; the non-null ones without a default are required.
   */
  body?: InputSpec;
  /** Query parameters: the fields of the variable `into` (e.g. `filter`), or top-level variables, likewise. */
  query?: InputSpec;
  /** Route-specific error codes, beside the ones every route can return (see openapi/errors.ts). */
  errors?: readonly ErrorCode[];
  /** An example request body. */
  example?: Record<string, unknown>;
  /**
   * OpenAPI links from the success response to the routes a client reads next, by name: the target route's
   * operation and where each of its parameters comes from (a runtime expression such as `$response.body#/batchId`).
   * Declared where the response names the created resource by something other than `id`, so that a generated
   * client or a stateful tester follows the right field instead of guessing one.
   */
  links?: Readonly<Record<string, RouteLink>>;
}

export interface RouteLink {
  operation: OperationName;
  parameters: Readonly<Record<string, string>>;
}

/**
 * One documented REST path = one named GraphQL operation run in-process through the gateway. `N` types the
 * route by its operation's generated result (`pnpm codegen`): an operation without generated types, or a
 * `field` the operation does not select, fails `pnpm typecheck`.
 */
interface RestRouteOf<N extends OperationName> {
  method: HttpMethod;
  /** Path pattern; each `:name` segment is the operation's variable `$name`. Static segments win. */
  path: string;
  operation: N;
  /** The response body: a root field the operation selects. */
  field: keyof OperationResults[N] & string;
  /** Success status (default 200). */
  status?: number;
  /** A null result means the id does not exist (in this tenant): 404 for this entity. */
  notFound?: string;
  /**
   * Serve repeated reads from the cache: answers are kept under the read scope's version (the owning
   * subgraph replaces it on every write, before acknowledging), for at most `ttlSeconds`.
   */
  cache?: { scope: string; ttlSeconds: number };
  /** The route's entry in `GET /openapi.json`. */
  docs: RouteDocs;
  /**
   * `Accept: text/csv` is answered by this operation instead: its root `field` is the CSV text (a route without
   * it always answers JSON).
   */
  csv?: CsvAnswer;
}

/** The CSV form of a route's answer: an operation whose root field is the text. */
export interface CsvAnswer {
  operation: OperationName;
  field: string;
}

/** A route of any operation, checked against that operation's own result type. */
export type RestRoute = { [N in OperationName]: RestRouteOf<N> }[OperationName];

/** A route of a file whose routes are one group of the reference: its docs without the group's tag. */
type UntaggedRoute = {
  [N in OperationName]: Omit<RestRouteOf<N>, 'docs'> & { docs: Omit<RouteDocs, 'tag'> };
}[OperationName];

/** One resource's routes, each under the group `tag` of the reference (`Tavoli`). */
export function tagged(tag: string, routes: readonly UntaggedRoute[]): readonly RestRoute[] {
  return routes.map((route) => ({ ...route, docs: { ...route.docs, tag } }) as RestRoute);
}
