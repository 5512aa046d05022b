import { GraphQLNonNull, isNonNullType, parse, type GraphQLSchema } from 'graphql';
import {
  constrain,
  inputField,
  inputSchema,
  operationOf,
  outputSchema,
  SchemaRegistry,
  variableType,
  withoutNull,
  type JsonSchema,
} from '../pages/openapi/json-schema.js';
import { OBJECT_CONSTRAINTS } from './object-constraints.js';
import type { RestRoute } from './rest-route.js';
import { routeInputs } from './route-inputs.js';

/** The JSON Schemas of a route's request, the one source of its validation (fastify) and its OpenAPI entry. */
export interface RequestSchemas {
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
}

/**
 * The request schemas of a route, typed by its GraphQL operation's variables (path parameters and the body's
 * and query's fields, each inside the variable `into` or a top-level variable) and narrowed by
 * INPUT_CONSTRAINTS: what the document allows is what the service accepts.
 */
export function requestSchemas(route: RestRoute, schema: GraphQLSchema, document: string): RequestSchemas {
  const { operation } = operationOf(parse(document), route.operation);
  const inputs = routeInputs(route, schema, document);
  const typed = (name: string, into: string | undefined) => {
    if (!into) {
      const type = variableType(schema, operation, name);
      return { schema: inputSchema(type, `${route.operation}.$${name}`), required: isNonNullType(type) };
    }
    const container = variableType(schema, operation, into);
    const field = inputField(container, name);
    return {
      schema: inputSchema(field.type, `${namedTypeName(container)}.${name}`),
      required: isNonNullType(field.type) && field.defaultValue === undefined,
    };
  };
  const out: RequestSchemas = {};
  const { params } = inputs;
  if (params.length > 0) {
    out.params = {
      type: 'object',
      properties: Object.fromEntries(params.map((name) => [name, { type: 'string', minLength: 1 }])),
      required: params,
    };
  }
  const query = inputs.query;
  if (query) {
    const fields = query.names.map((name) => [name, typed(name, query.into)] as const);
    const required = fields.filter(([, f]) => f.required).map(([name]) => name);
    out.querystring = {
      type: 'object',
      properties: Object.fromEntries(fields.map(([name, f]) => [name, withoutNull(f.schema)])),
      ...(required.length > 0 ? { required } : {}),
    };
  }
  const body = inputs.body;
  if (body) {
    const into = body.into;
    const objectConstraints = into
      ? [
          OBJECT_CONSTRAINTS[namedTypeName(variableType(schema, operation, into))],
          OBJECT_CONSTRAINTS[`${route.operation}.$${into}`],
        ].filter((c) => c !== undefined)
      : [];
    const objectConstraint =
      objectConstraints.length > 1 ? { allOf: objectConstraints } : objectConstraints[0];
    const fields = body.names.map((name) => [name, typed(name, into)] as const);
    const required = fields.filter(([, f]) => f.required).map(([name]) => name);
    const shape: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(fields.map(([name, f]) => [name, f.schema])),
      ...(required.length > 0 ? { required } : {}),
    };
    out.body = objectConstraint ? constrain(shape, objectConstraint) : shape;
  }
  return out;
}

function namedTypeName(type: unknown): string {
  let named = type as { ofType?: unknown; name?: string };
  while (named.ofType) named = named.ofType as typeof named;
  return named.name ?? '';
}

/**
 * The JSON Schema of a route's success body: exactly what its operation selects of `route.field`, `null` only
 * where the GraphQL type allows it (a success is an execution without errors, register-routes.ts). Object types
 * are named in `registry` (`$ref`s into `components.schemas`, as the OpenAPI document shows them).
 */
export function responseSchema(
  route: RestRoute,
  schema: GraphQLSchema,
  document: string,
  registry: SchemaRegistry,
): { schema: JsonSchema; description: string } {
  const { operation, fragments } = operationOf(parse(document), route.operation);
  const root = schema.getRootType(operation.operation);
  const rootField = operation.selectionSet.selections.find(
    (s) => s.kind === 'Field' && s.name.value === route.field,
  );
  if (!root || !rootField || rootField.kind !== 'Field') {
    throw new Error(`OpenAPI: ${route.operation} does not select ${route.field}`);
  }
  const field = root.getFields()[route.field]!;
  // A read-one route answers a null result with a 404 (runRoute): its success body is never null.
  const type = route.notFound && !isNonNullType(field.type) ? new GraphQLNonNull(field.type) : field.type;
  return {
    schema: outputSchema(type, rootField.selectionSet, { fragments, registry, nullability: 'declared' }),
    description: field.description ?? 'Success',
  };
}

/** The success body's schema with every `$ref` replaced by the schema it names (for fastify's serializer). */
export function inlineResponseSchema(route: RestRoute, schema: GraphQLSchema, document: string): JsonSchema {
  const registry = new SchemaRegistry();
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      return inline(registry.schemas[ref.slice('#/components/schemas/'.length)]);
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner)]));
  };
  return inline(responseSchema(route, schema, document, registry).schema) as JsonSchema;
}
