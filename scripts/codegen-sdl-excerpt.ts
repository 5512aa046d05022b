// A GraphQL Code Generator plugin (codegen.ts): the SDL of some input and enum types of a schema, and of every
// input, enum and scalar type they use, as an exported string constant. A subgraph that must know another's
// input type at run time (bookings checks batch items against prenotazione's PrenotazioneInput) gets it
// generated from the owner's schema.graphql instead of a copy.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isScalarType,
  isSpecifiedScalarType,
  printType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export interface SdlExcerptConfig {
  /** The types to print (their input, enum and custom scalar dependencies follow). */
  types: string[];
  /** The name of the exported constant. */
  exportName: string;
}

/** The named types and the input, enum and custom scalar types they reach, in the order first reached. */
export function typesReached(schema: GraphQLSchema, names: readonly string[]): GraphQLNamedType[] {
  const reached = new Map<string, GraphQLNamedType>();
  const visit = (type: GraphQLNamedType) => {
    if (reached.has(type.name) || isSpecifiedScalarType(type)) return;
    if (!isInputObjectType(type) && !isEnumType(type) && !isScalarType(type)) {
      throw new Error(`sdl-excerpt: ${type.name} is not an input, enum or scalar type`);
    }
    reached.set(type.name, type);
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) visit(getNamedType(field.type));
    }
  };
  for (const name of names) {
    const type = schema.getType(name);
    if (!type) throw new Error(`sdl-excerpt: the schema has no type ${name}`);
    visit(type);
  }
  return [...reached.values()];
}

/** The plugin function (GraphQL Code Generator's `plugin(schema, documents, config)`). */
export function plugin(schema: GraphQLSchema, _documents: unknown, config: SdlExcerptConfig): string {
  const sdl = typesReached(schema, config.types).map(printType).join('\n\n');
  // A template literal keeps the SDL readable: escape what would end or interpolate it.
  const literal = sdl.replace(/\\|`|\$\{/g, (match) => `\\${match}`);
  return `export const ${config.exportName} = /* GraphQL */ \`\n${literal}\n\`;\n`;
}
