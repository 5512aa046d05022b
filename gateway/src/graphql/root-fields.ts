import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

const ROOT_TYPE = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/**
 * The root fields an operation selects, as `Type.field` (fragments and inline fragments at the root expanded), for
 * the rights of service tokens (@coperto/auth `forbiddenRootFields`).
 */
export function rootFieldsOf(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const type = ROOT_TYPE[operation.operation];
  const fragments = new Map(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [],
    ),
  );
  const fields = new Set<string>();
  const seen = new Set<string>();
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) fields.add(`${type}.${selection.name.value}`);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...fields];
}
