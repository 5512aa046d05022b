import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSON: {},
};

function scalarOrEnum(type: GraphQLNamedType): JsonSchema | undefined {
  if (isScalarType(type)) return { ...(SCALARS[type.name] ?? {}) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  return undefined;
}

/** `null` allowed too: `type: [t, 'null']` for simple types, else `anyOf`. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string' && !('$ref' in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** Names object schemas once (`components.schemas`) and answers `$ref`s; same name, other shape → a suffix. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly byShape = new Map<string, string>();

  ref(name: string, schema: JsonSchema): JsonSchema {
    const shape = JSON.stringify(schema);
    let key = this.byShape.get(shape);
    if (!key) {
      key = name;
      for (let n = 2; key in this.schemas; n++) key = `${name}${n}`;
      this.schemas[key] = schema;
      this.byShape.set(shape, key);
    }
    return { $ref: `#/components/schemas/${key}` };
  }
}

/** The JSON a selection set of `type` produces: exactly the selected fields (GraphQL returns each one). */
export function outputSchema(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  registry: SchemaRegistry,
): JsonSchema {
  if (isNonNullType(type)) return outputSchema(type.ofType, selectionSet, fragments, registry);
  return orNull(nonNullOutput(type, selectionSet, fragments, registry));
}

function nonNullOutput(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  registry: SchemaRegistry,
): JsonSchema {
  if (isNonNullType(type)) return nonNullOutput(type.ofType, selectionSet, fragments, registry);
  if (isListType(type)) {
    return { type: 'array', items: outputSchema(type.ofType, selectionSet, fragments, registry) };
  }
  const simple = scalarOrEnum(type);
  if (simple) return simple;
  if (!isObjectType(type) || !selectionSet) {
    throw new Error(`OpenAPI: unsupported output type ${type.toString()}`);
  }
  const properties: Record<string, JsonSchema> = {};
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (selection.name.value === '__typename') {
          properties[key] = { type: 'string' };
          continue;
        }
        const field = type.getFields()[selection.name.value];
        if (!field) throw new Error(`OpenAPI: ${type.name}.${selection.name.value} is not in the schema`);
        const schema = outputSchema(field.type, selection.selectionSet, fragments, registry);
        properties[key] = field.description ? { description: field.description, ...schema } : schema;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment) throw new Error(`OpenAPI: unknown fragment ${selection.name.value}`);
        collect(fragment.selectionSet);
      }
    }
  };
  collect(selectionSet);
  return registry.ref(type.name, {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });
}

/** What GraphQL variable coercion accepts for an input type (nullable types accept null). */
export function inputSchema(type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return nonNullInput(type.ofType);
  return orNull(nonNullInput(type));
}

function nonNullInput(type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return nonNullInput(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType) };
  const simple = scalarOrEnum(type);
  if (simple) return simple;
  if (!isInputObjectType(type)) throw new Error(`OpenAPI: unsupported input type ${String(type)}`);
  const fields = type.getFields();
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.values(fields).map((f) => [f.name, describe(inputSchema(f.type), f.description)]),
    ),
  };
}

function describe(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { description, ...schema } : schema;
}

/** The operation named `name` of a document, with the fragments it may use. */
export function operationOf(document: DocumentNode, name: string) {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    if (definition.kind === Kind.OPERATION_DEFINITION && definition.name?.value === name) {
      operation = definition;
    }
  }
  if (!operation) throw new Error(`OpenAPI: operation ${name} not found`);
  return { operation, fragments };
}

/** The GraphQL input type of a variable of the operation. */
export function variableType(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variable: string,
): GraphQLInputType {
  const definition = operation.variableDefinitions?.find((v) => v.variable.name.value === variable);
  if (!definition) throw new Error(`OpenAPI: ${operation.name?.value} has no variable $${variable}`);
  const type = typeFromAST(schema, definition.type);
  if (!type || !isInputType(type)) throw new Error(`OpenAPI: unknown type of $${variable}`);
  return type;
}

/** The input type of `field` inside the input object type of a variable. */
export function inputFieldType(type: GraphQLInputType, field: string): GraphQLInputType {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) throw new Error(`OpenAPI: ${named.name} is not an input object`);
  const found = named.getFields()[field];
  if (!found) throw new Error(`OpenAPI: ${named.name} has no field ${field}`);
  return found.type;
}
