// A GraphQL Code Generator plugin (codegen.ts): after `typescript-operations` has declared each operation's
// result type (`<Name>Query`, `<Name>Mutation`), one interface that maps every operation name to its result
// type (and, when asked, one to its variables type), so code can be typed by an operation's name (the REST routes
// are: a route's `field` must be a root field its operation selects; the Google booking server runs its operations
// by name).
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';

export interface OperationMapConfig {
  /** The name of the exported interface. */
  interfaceName: string;
  /** When set, a second interface by this name maps each operation name to its variables type. */
  variablesInterfaceName?: string;
}

const SUFFIX = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/** The named operations of the documents, in document order; an anonymous operation is refused. */
export function namedOperations(
  documents: ReadonlyArray<{ document?: DocumentNode }>,
): OperationDefinitionNode[] {
  const operations = documents.flatMap((file) =>
    (file.document?.definitions ?? []).filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    ),
  );
  for (const operation of operations) {
    if (!operation.name) throw new Error('operation-map: every operation needs a name');
  }
  return operations;
}

/** The plugin function (GraphQL Code Generator's `plugin(schema, documents, config)`). */
export function plugin(
  _schema: unknown,
  documents: ReadonlyArray<{ document?: DocumentNode }>,
  config: OperationMapConfig,
) {
  const operations = namedOperations(documents);
  const map = (interfaceName: string, suffix: string) => {
    const lines = operations.map((operation) => {
      const name = operation.name!.value;
      return `  ${name}: ${name}${SUFFIX[operation.operation]}${suffix};`;
    });
    return `\nexport interface ${interfaceName} {\n${lines.join('\n')}\n}\n`;
  };
  const variables = config.variablesInterfaceName ? map(config.variablesInterfaceName, 'Variables') : '';
  return map(config.interfaceName, '') + variables;
}
