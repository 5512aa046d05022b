import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/**
 * The `JSON` scalar: any JSON value, passed through unchanged. Batch items travel as JSON so that a malformed
 * item (a string where a number belongs) is reported for that item instead of failing the whole operation.
 */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueOfLiteral(ast, variables ?? undefined),
});

/** The JS value of a literal in a query (variables inside lists and objects included). */
export function valueOfLiteral(ast: ValueNode, variables: Record<string, unknown> | undefined): unknown {
  switch (ast.kind) {
    case Kind.NULL:
      return null;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.LIST:
      return ast.values.map((value) => valueOfLiteral(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(
        ast.fields.map((field) => [field.name.value, valueOfLiteral(field.value, variables)]),
      );
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}
