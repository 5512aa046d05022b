import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse, type GraphQLSchema } from 'graphql';
import type { RestRoute, RouteLink } from '../../rest/rest-route.js';
import { idLinks, idPointer } from './id-links.js';
import { twinNote } from './bilingual-names.js';
import { requestSchemas, responseSchema } from '../../rest/request-schema.js';
import { operationOf, SchemaRegistry, variableType, type JsonSchema } from './json-schema.js';
import type { ErrorCode } from '@coperto/errors';
import { errorBodySchema, routeErrors } from './route-errors.js';

export interface OpenApiOptions {
  routes: readonly RestRoute[];
  /** The public API schema (apiSchemaOf(supergraph)). */
  schema: GraphQLSchema;
  /** The GraphQL document a route runs. */
  documentOf: (route: RestRoute) => string;
  version: string;
  /** Routes outside the route table (no single GraphQL operation behind them), described by their owners. */
  extraRoutes?: readonly DocumentedRoute[];
}

/** A route served outside the route table, as the OpenAPI document lists it. */
export interface DocumentedRoute {
  method: 'GET';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Query parameters: a JSON Schema object of them. */
  querystring: JsonSchema;
  response: JsonSchema;
  /** Error codes beside the ones every route can return. */
  errors: readonly ErrorCode[];
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Tavoli: 'Tables: status, locks, availability',
  Sale: 'Rooms',
  Prenotazioni: 'Bookings, offline sync and the batch upload',
  Capacity: 'Slots, pacing and kitchen categories',
};

/** `/api/tavoli/:id` → `/api/tavoli/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/**
 * The OpenAPI 3.1 document of the REST facade, built from the route table that serves the requests: each
 * route's body and query fields are typed by its GraphQL operation's variables, its response by the
 * operation's selection set, its errors by the error table.
 */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const registry = new SchemaRegistry();
  const paths: Record<string, Record<string, unknown>> = {};
  const built = options.routes.map((route) => operationObject(route, options, registry));
  const linked = idLinks(built);
  for (const { route, operation, success } of built) {
    const links = { ...linked.get(route), ...route.docs.links };
    if (Object.keys(links).length > 0) success.links = linksObject(links);
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation;
  }
  for (const route of options.extraRoutes ?? []) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = documentedOperation(route);
  }
  const tags = [
    ...new Set([...options.routes.map((r) => r.docs.tag), ...(options.extraRoutes ?? []).map((r) => r.tag)]),
  ].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coperto REST API',
      version: options.version,
      description: [
        "The waiter app's REST facade. Every route runs one named GraphQL operation of the gateway.",
        'Authenticate with `Authorization: Bearer <jwt>` (claims: `tenantId`, optional `role: "admin"`).',
        'Italian and English input names are both accepted; when both are sent, the English one wins.',
        'Every response carries `x-request-id`; error bodies carry it as `error.requestId`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      headers: {
        'x-request-id': {
          description:
            "The request's id: the caller's if it sent a sane one (≤ 128 of [A-Za-z0-9._-]), else a new UUID",
          schema: { type: 'string' },
        },
      },
      schemas: registry.schemas,
    },
  };
}

function operationObject(route: RestRoute, options: OpenApiOptions, registry: SchemaRegistry) {
  const document = options.documentOf(route);
  const { operation } = operationOf(parse(document), route.operation);
  const success = responseSchema(route, options.schema, document, registry);
  const status = route.status ?? 200;
  const successResponse: Record<string, unknown> = {
    description: success.description,
    headers: REQUEST_ID_HEADERS,
    content: {
      'application/json': { schema: success.schema },
      // The route's CSV form (`Accept: text/csv`): a header line and one line per row.
      ...(route.csv ? { 'text/csv': { schema: { type: 'string' } } } : {}),
    },
  };
  const responses = { [status]: successResponse, ...errorResponses(routeErrors(route)) };
  const request = requestSchemas(route, options.schema, document);
  const parameters = [...parametersOf(request.params, 'path'), ...parametersOf(request.querystring, 'query')];
  const described = {
    operationId: route.operation,
    summary: route.docs.summary,
    description: [route.docs.description, `GraphQL operation: \`${route.operation}\`.`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.docs.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(request.body ? { requestBody: requestBody(route, request.body, options.schema, operation) } : {}),
    responses,
  };
  return {
    route,
    operation: described,
    success: successResponse,
    idAt: idPointer(success.schema, registry),
  };
}

/** Every response carries the request's id. */
const REQUEST_ID_HEADERS = { 'x-request-id': { $ref: '#/components/headers/x-request-id' } };

/** A route's error responses by status, each with the codes it may carry. */
function errorResponses(errors: ReturnType<typeof routeErrors>): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of errors) {
    responses[status] = {
      description: codes.join(', '),
      headers: REQUEST_ID_HEADERS,
      content: { 'application/json': { schema: errorBodySchema(codes) } },
    };
  }
  return responses;
}

/** A route's links as OpenAPI Link Objects (the target named by its operationId, which is its operation). */
function linksObject(links: Readonly<Record<string, RouteLink>>) {
  return Object.fromEntries(
    Object.entries(links).map(([name, link]) => [
      name,
      { operationId: link.operation, parameters: link.parameters },
    ]),
  );
}

function documentedOperation(route: DocumentedRoute) {
  const responses = {
    200: {
      description: route.summary,
      headers: REQUEST_ID_HEADERS,
      content: { 'application/json': { schema: route.response } },
    },
    ...errorResponses(
      routeErrors({ method: route.method, path: route.path, docs: { errors: route.errors } }),
    ),
  };
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: parametersOf(route.querystring, 'query'),
    responses,
  };
}

/** The OpenAPI parameters of a params or querystring schema. */
function parametersOf(schema: JsonSchema | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

const emptyBodyValidator = new Ajv2020({ strict: false });

/** The request body: its schema (request-schema.ts) with each field's description and twin note. */
function requestBody(
  route: RestRoute,
  bodySchema: JsonSchema,
  schema: GraphQLSchema,
  operation: ReturnType<typeof operationOf>['operation'],
) {
  const body = route.docs.body!;
  const properties: Record<string, JsonSchema> = {};
  const names = Object.keys(bodySchema.properties as Record<string, JsonSchema>);
  for (const [name, property] of Object.entries(bodySchema.properties as Record<string, JsonSchema>)) {
    const described = body.into ? fieldDescription(body.into, schema, operation, name) : undefined;
    const note = [described, twinNote(name, names)].filter(Boolean).join(' ');
    properties[name] = { ...(note ? { description: note } : {}), ...property };
  }
  return {
    // An absent body is `{}`: the body is required when `{}` would be refused.
    required: !emptyBodyValidator.validate(bodySchema, {}),
    content: {
      'application/json': {
        schema: {
          ...bodySchema,
          properties,
          description:
            'Other fields (e.g. a `tenantId`) are ignored: the tenant always comes from the token.',
        },
        ...(route.docs.example ? { example: route.docs.example } : {}),
      },
    },
  };
}

function fieldDescription(
  into: string,
  schema: GraphQLSchema,
  operation: ReturnType<typeof operationOf>['operation'],
  name: string,
): string | undefined {
  const container = variableType(schema, operation, into);
  const named = 'ofType' in container && container.ofType ? container.ofType : container;
  const fields = (
    named as { getFields?: () => Record<string, { description?: string | null }> }
  ).getFields?.();
  return fields?.[name]?.description ?? undefined;
}
