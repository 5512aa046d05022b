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
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

import {
  DATE_SCALAR_PATTERNS,
  LOCAL_DATE_TIME_PATTERN,
  LOCAL_TIME_PATTERN,
} from '../../rest/date-patterns.js';
import { INPUT_CONSTRAINTS, type FieldConstraint, type JsonSchema } from '../../rest/input-constraints.js';
import { OBJECT_CONSTRAINTS } from '../../rest/object-constraints.js';

export type { JsonSchema };

/** The JSON of each scalar as an answer carries it. */
const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  // GraphQL's Int is a signed 32-bit integer.
  Int: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSON: {},
  // The date scalars (@coperto/domain's date-scalars.ts) are ISO 8601 text: the services answer dates with
  // seconds (`format` describes them); a request's dates are INPUT_SCALARS'.
  LocalDate: { type: 'string', format: 'date' },
  LocalDateTime: { type: 'string', pattern: LOCAL_DATE_TIME_PATTERN },
  LocalTime: { type: 'string', pattern: LOCAL_TIME_PATTERN },
  DateTime: { type: 'string', format: 'date-time' },
};

/**
 * A scalar in a request: the date scalars are the patterns the gateway checks (date-patterns.ts), so that the
 * document states exactly what is accepted (a `format` is only a description to ajv).
 */
const INPUT_SCALARS: Record<string, JsonSchema> = {
  ...SCALARS,
  ...Object.fromEntries(
    Object.entries(DATE_SCALAR_PATTERNS).map(([name, pattern]) => [name, { type: 'string', pattern }]),
  ),
};

function scalarOrEnum(type: GraphQLNamedType, scalars = SCALARS): JsonSchema | undefined {
  if (isScalarType(type)) return { ...(scalars[type.name] ?? {}) };
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

/**
 * Where an output's `null`s come from. `declared`: a REST answer is an execution without errors (one with errors
 * is an error body), so every non-null field of the schema holds a value and only nullable ones may be `null`.
 * `every-field`: an event's record as stored, where any field may be `null`.
 */
export type Nullability = 'declared' | 'every-field';

interface OutputContext {
  fragments: Record<string, FragmentDefinitionNode>;
  registry: SchemaRegistry;
  nullability: Nullability;
}

/**
 * The JSON a selection set of `type` produces: exactly the selected fields (GraphQL returns each one, a field
 * under `@skip`/`@include` only when selected), `null` where `nullability` allows it.
 */
export function outputSchema(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  context: OutputContext,
): JsonSchema {
  if (isNonNullType(type)) {
    const inner = nonNullOutput(type.ofType, selectionSet, context);
    return context.nullability === 'declared' ? inner : orNull(inner);
  }
  return orNull(nonNullOutput(type, selectionSet, context));
}

function nonNullOutput(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  context: OutputContext,
): JsonSchema {
  if (isNonNullType(type)) return nonNullOutput(type.ofType, selectionSet, context);
  if (isListType(type)) {
    return { type: 'array', items: outputSchema(type.ofType, selectionSet, context) };
  }
  const simple = scalarOrEnum(type);
  if (simple) return simple;
  if (!isObjectType(type) || !selectionSet) {
    throw new Error(`OpenAPI: unsupported output type ${type.toString()}`);
  }
  const properties: Record<string, JsonSchema> = {};
  const always = new Set<string>();
  const collect = (set: SelectionSetNode, conditional: boolean) => {
    for (const selection of set.selections) {
      const skippable = conditional || isConditional(selection);
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!skippable) always.add(key);
        if (selection.name.value === '__typename') {
          properties[key] = { type: 'string' };
          continue;
        }
        const field = type.getFields()[selection.name.value];
        if (!field) throw new Error(`OpenAPI: ${type.name}.${selection.name.value} is not in the schema`);
        const schema = outputSchema(field.type, selection.selectionSet, context);
        properties[key] = field.description ? { description: field.description, ...schema } : schema;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet, skippable);
      } else {
        const fragment = context.fragments[selection.name.value];
        if (!fragment) throw new Error(`OpenAPI: unknown fragment ${selection.name.value}`);
        collect(fragment.selectionSet, skippable);
      }
    }
  };
  collect(selectionSet, false);
  return context.registry.ref(type.name, {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    properties,
    required: Object.keys(properties).filter((key) => always.has(key)),
    additionalProperties: false,
  });
}

/** A selection under `@skip` or `@include` may be left out of the answer. */
function isConditional(selection: SelectionNode): boolean {
  return (selection.directives ?? []).some((d) => d.name.value === 'skip' || d.name.value === 'include');
}

/**
 * What a request may carry for an input type: the GraphQL type (nullable types accept null) narrowed by the
 * field's entry in INPUT_CONSTRAINTS (`constraintKey`: `Type.field` or `Operation.$variable`).
 */
export function inputSchema(type: GraphQLInputType, constraintKey?: string): JsonSchema {
  const base = isNonNullType(type) ? nonNullInput(type.ofType) : orNull(nonNullInput(type));
  const constraint = constraintKey ? INPUT_CONSTRAINTS[constraintKey] : undefined;
  return constraint ? constrain(base, constraint) : base;
}

/** A schema narrowed by a constraint: `nullable: false` drops null; `items` are merged, other keys set. */
export function constrain(schema: JsonSchema, constraint: FieldConstraint): JsonSchema {
  const { nullable, items, ...rest } = constraint;
  let out = nullable === false ? withoutNull(schema) : { ...schema };
  if (Array.isArray(out.anyOf) && Object.keys(rest).some((k) => k !== 'description')) {
    // A nullable object or array: the constraint applies to the non-null branch.
    const [branch, ...others] = out.anyOf as JsonSchema[];
    return { ...out, anyOf: [constrain(branch!, constraint), ...others] };
  }
  if (items !== undefined)
    out.items = { ...((out.items as JsonSchema | undefined) ?? {}), ...(items as JsonSchema) };
  out = { ...out, ...rest };
  return out;
}

/** The schema without `null` (a query parameter, or a field whose service refuses an explicit null). */
export function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const type = schema.type.filter((t) => t !== 'null');
    const out: JsonSchema = { ...schema, type: type.length === 1 ? type[0] : type };
    if (Array.isArray(schema.enum)) out.enum = schema.enum.filter((v) => v !== null);
    return out;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as JsonSchema[]).filter((b) => b.type !== 'null');
    if (branches.length === 1) {
      const { anyOf: _anyOf, ...rest } = schema;
      return { ...rest, ...branches[0] };
    }
  }
  return schema;
}

function nonNullInput(type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return nonNullInput(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType) };
  const simple = scalarOrEnum(type, INPUT_SCALARS);
  if (simple) return simple;
  if (!isInputObjectType(type)) throw new Error(`OpenAPI: unsupported input type ${String(type)}`);
  const fields = Object.values(type.getFields());
  const required = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
  const shape: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((f) => [f.name, describe(inputSchema(f.type, `${type.name}.${f.name}`), f.description)]),
    ),
    ...(required.length > 0 ? { required } : {}),
    // GraphQL refuses a field its input type does not have (only a body's top level ignores other fields:
    // request-schema.ts picks the route's own), so the document does too.
    additionalProperties: false,
  };
  // The type's rules over several fields (a required bilingual twin…), wherever the type is nested.
  const rules = OBJECT_CONSTRAINTS[type.name];
  return rules ? constrain(shape, rules) : shape;
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

/** The field `field` (its type and default) inside the input object type of a variable. */
export function inputField(type: GraphQLInputType, field: string): GraphQLInputField {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) throw new Error(`OpenAPI: ${named.name} is not an input object`);
  const found = named.getFields()[field];
  if (!found) throw new Error(`OpenAPI: ${named.name} has no field ${field}`);
  return found;
}
