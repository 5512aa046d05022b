import {
  BREAK,
  getNamedType,
  Kind,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { CACHEABLE_FIELDS } from './cacheable-fields.js';

/** Directives that keep an answer cacheable: their effect is decided by the variables, which are in the key. */
const KEY_DECIDED_DIRECTIVES = new Set(['include', 'skip']);

/**
 * The read scopes the answer of `operationName` in `query` depends on, sorted, or null when it cannot be
 * cached: a document that does not parse or validate against the API schema's types, an operation that is not
 * a query (or not found), a field outside CACHEABLE_FIELDS anywhere in the document (every definition is
 * checked, so an unused fragment or a second operation can only make it uncacheable), or a directive other
 * than @include/@skip. Pure; `maxTokens` bounds the parse (the route counts tokens before this runs).
 */
export function readScopesOf(
  schema: GraphQLSchema,
  query: string,
  operationName: string | undefined,
  maxTokens: number,
): readonly string[] | null {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens });
  } catch {
    return null;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    operationName === undefined
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((o) => o.name?.value === operationName);
  if (!operation || operation.operation !== 'query') return null;

  const scopes = new Set<string>();
  let cacheable = true;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Directive(node) {
        if (KEY_DECIDED_DIRECTIVES.has(node.name.value)) return undefined;
        cacheable = false;
        return BREAK;
      },
      Field(node) {
        if (node.name.value === '__typename') return undefined;
        const parent = typeInfo.getParentType();
        const scope = parent
          ? CACHEABLE_FIELDS.get(getNamedType(parent).name)?.get(node.name.value)
          : undefined;
        if (scope !== undefined && typeInfo.getFieldDef()) {
          scopes.add(scope);
          return undefined;
        }
        cacheable = false;
        return BREAK;
      },
    }),
  );
  return cacheable ? [...scopes].sort() : null;
}
